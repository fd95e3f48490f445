import Foundation

/// The little of RFC 6455 the live page needs: the handshake's accept key, text frames from
/// the server, and the page's frames (masked, small: "received end", pings, a close).
enum WebSocket {
    /// The `Sec-WebSocket-Accept` answer to a handshake's `Sec-WebSocket-Key`.
    static func acceptKey(for key: String) -> String {
        Data(SHA1.digest(of: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
    }

    /// One frame from the server (unmasked, final), appended to `output`.
    static func appendFrame(_ opcode: Opcode, payload: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(0x80 | opcode.rawValue)
        let count = payload.count
        if count < 126 {
            output.append(UInt8(count))
        } else if count <= Int(UInt16.max) {
            output.append(126)
            withUnsafeBytes(of: UInt16(count).bigEndian) { output.append(contentsOf: $0) }
        } else {
            output.append(127)
            withUnsafeBytes(of: UInt64(count).bigEndian) { output.append(contentsOf: $0) }
        }
        output.append(contentsOf: payload)
    }

    /// A frame the page sent.
    struct Frame: Equatable {
        var opcode: UInt8
        var isFinal: Bool
        var payload: [UInt8]
    }

    enum FrameError: Error, Equatable {
        /// A client's frame must be masked (RFC 6455, 5.1).
        case unmasked
        /// Larger than the page ever sends.
        case tooLarge
    }

    /// The first whole frame in `bytes` and how many bytes it took, `nil` while it is
    /// incomplete. A payload over `limit` bytes is refused before it is read.
    static func frame(in bytes: ArraySlice<UInt8>, limit: Int) throws(FrameError) -> (frame: Frame, length: Int)? {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let first = bytes[start], second = bytes[start + 1]
        guard second & 0x80 != 0 else { throw .unmasked }
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = UInt64(bytes[start + 2]) << 8 | UInt64(bytes[start + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[start + 2 + $1]) }
            offset = 10
        }
        guard length <= UInt64(limit) else { throw .tooLarge }
        let total = offset + 4 + Int(length)
        guard bytes.count >= total else { return nil }
        let mask = bytes[(start + offset)..<(start + offset + 4)].map { $0 }
        let payloadStart = start + offset + 4
        let payload = (0..<Int(length)).map { bytes[payloadStart + $0] ^ mask[$0 & 3] }
        return (Frame(opcode: first & 0x0F, isFinal: first & 0x80 != 0, payload: payload), total)
    }
}

/// SHA-1 (FIPS 180-4), for the WebSocket handshake alone, where the protocol fixes it. The
/// toolchain has no digest on Linux, and swift-crypto would add a minute to every fresh
/// build of the tool for twenty bytes per connection.
enum SHA1 {
    static func digest(of message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        withUnsafeBytes(of: (UInt64(message.count) * 8).bigEndian) { padded.append(contentsOf: $0) }
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                w[i] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(padded[block + i * 4 + $1]) }
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch i {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let next = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, next)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    private static func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 { value << by | value >> (32 - by) }
}
