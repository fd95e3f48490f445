/// A request's line and headers (RFC 9112), parsed in one pass over bytes the server has
/// already capped: the live server reads nothing else (it takes no request bodies).
struct HTTPRequestHead {
    var method: String
    /// The request target as sent: a path and an optional query.
    var target: String
    var version: String
    /// Every header in order, names lowercased.
    var headers: [(name: String, value: String)]

    /// Why a head was refused: each is answered with its status and the connection closed.
    enum Refusal: Error, Equatable {
        case badRequest(String)
        /// The request line alone is over the cap (414).
        case targetTooLong
        /// The line and headers together are over the cap (431).
        case headTooLarge

        var status: HTTPStatus {
            switch self {
            case .badRequest: .badRequest
            case .targetTooLong: .uriTooLong
            case .headTooLarge: .headerFieldsTooLarge
            }
        }

        var reason: String {
            switch self {
            case .badRequest(let reason): reason
            case .targetTooLong: "the request line is longer than the live server takes"
            case .headTooLarge: "the request's headers are larger than the live server takes"
            }
        }
    }

    /// The values of header `name` (lowercase), in order.
    func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }

    /// The target's path, before any `?`.
    var path: Substring { target.prefix { $0 != "?" } }

    /// The target's query items, percent-decoded; the first of a repeated name wins.
    var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(parts[0]) else { continue }
            if items[name] == nil { items[name] = parts.count > 1 ? Self.percentDecoded(parts[1]) ?? "" : "" }
        }
        return items
    }

    /// Where the head in `bytes` ends (just past its blank line), searching from `from`, or
    /// `nil` if it has not ended yet. Callers pass back the count they searched, less three,
    /// so that the search over a growing buffer stays linear.
    static func endOfHead(in bytes: [UInt8], from: Int) -> Int? {
        var index = max(from, 0)
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    /// The refusal for `bytes` that reached the cap without ending: a request line not yet
    /// ended is a target too long.
    static func refusalAtCap(_ bytes: [UInt8]) -> Refusal {
        bytes.firstIndex(of: 10) == nil ? .targetTooLong : .headTooLarge
    }

    /// Parses a whole head (ending with its blank line).
    init(_ head: ArraySlice<UInt8>) throws(Refusal) {
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, let line = String(validating: requestLine, as: UTF8.self) else {
            throw .badRequest("the request line is not text")
        }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/1.") else {
            throw .badRequest("the request line is not METHOD TARGET HTTP/1.x")
        }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
        headers = []
        for field in lines.dropFirst() {
            // A folded line (obsolete since RFC 7230) is refused, as RFC 9112 allows.
            guard let first = field.first, first != 32, first != 9, let colon = field.firstIndex(of: 58),
                let name = String(validating: field[field.startIndex..<colon], as: UTF8.self),
                !name.isEmpty, name.allSatisfy(Self.isTokenCharacter),
                let value = String(validating: field[(colon + 1)...], as: UTF8.self)
            else { throw .badRequest("a header line is malformed") }
            headers.append((name.lowercased(), value.trimmingSpaces))
        }
        guard target.hasPrefix("/") else { throw .badRequest("the request target is not a path") }
        // One Host, or none at all: two could be read differently by whoever checks them.
        let hosts = values("host")
        guard hosts.count == 1 else { throw .badRequest(hosts.isEmpty ? "the request has no Host header" : "the request has more than one Host header") }
        guard values("transfer-encoding").isEmpty, values("content-length").allSatisfy({ $0 == "0" }) else {
            throw .badRequest("the live server takes no request bodies")
        }
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character))
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"): bytes.append(32)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}

extension String {
    /// Without the spaces and tabs around it (the optional whitespace of a header value).
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// The statuses the live server answers with.
enum HTTPStatus: Int {
    case switchingProtocols = 101, ok = 200, badRequest = 400, forbidden = 403, notFound = 404
    case methodNotAllowed = 405, uriTooLong = 414, headerFieldsTooLarge = 431

    var phrase: String {
        switch self {
        case .switchingProtocols: "Switching Protocols"
        case .ok: "OK"
        case .badRequest: "Bad Request"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .uriTooLong: "URI Too Long"
        case .headerFieldsTooLarge: "Request Header Fields Too Large"
        }
    }
}
