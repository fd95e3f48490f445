import Foundation

/// Writes an event log byte by byte, as docs/event-log.md specifies it, so that tests can
/// hand the tool what no recorder writes: huge ids, clocks that go back, hostile text,
/// logs cut anywhere. Independent of the reader on purpose: it is the specification's word
/// against the code's.
struct CraftedLog {
    private(set) var bytes: [UInt8] = Array("SIGSCOPE".utf8) + [2, 0, 0, 0, 0, 0, 0, 0]
    private var sequence: UInt64 = 1
    private var strings: [String: UInt32] = [:]

    enum Entity: UInt8 { case node = 0, subscription = 1, object = 2 }

    mutating func node(
        _ id: UInt64, name: String = "subject", file: String = "App/Main.swift", function: String = "main()",
        line: UInt32 = 3, kind: UInt8 = 0, traits: UInt8 = 0, parents: [UInt64] = []
    ) {
        let ids = (string(name), string(file), string(function))
        var payload = le(id) + [kind, traits, 0, 0] + le(ids.0) + le(ids.1) + le(ids.2) + le(line) + le(UInt32(parents.count))
        for parent in parents { payload += le(parent) + [0, 0, 0, 0, 0, 0, 0, 0] }
        record(2, payload)
    }

    mutating func named(_ node: UInt64, _ name: String) { record(3, le(node) + le(string(name))) }

    mutating func edge(to node: UInt64, from parent: UInt64) { record(4, le(node) + le(parent) + [0]) }

    mutating func subscribe(
        _ id: UInt64, to node: UInt64, parent: UInt64 = 0, file: String = "App/Main.swift", function: String = "main()",
        line: UInt32 = 5, bindingTarget: UInt64 = 0, timestamp: UInt64? = nil
    ) {
        let ids = (string(file), string(function))
        record(5, le(id) + le(node) + le(parent) + le(ids.0) + le(ids.1) + le(line) + le(bindingTarget), timestamp: timestamp)
    }

    /// The subscription keeps its observer; `handlers` bit 0 next, 1 error, 2 completed.
    mutating func observerStored(_ subscription: UInt64, handlers: UInt8 = 7) { record(6, le(subscription) + [handlers]) }

    mutating func next(_ subscription: UInt64, _ value: String, timestamp: UInt64? = nil) {
        record(8, le(subscription) + le(UInt32(value.utf8.count)) + Array(value.utf8), timestamp: timestamp)
    }

    mutating func error(_ subscription: UInt64, _ description: String) {
        record(9, le(subscription) + le(UInt32(description.utf8.count)) + Array(description.utf8))
    }

    mutating func disposed(_ subscription: UInt64) { record(11, le(subscription) + [0]) }

    mutating func violation(node: UInt64, stack: String, file: String, function: String, line: UInt32) {
        let ids = (string(stack), string(file), string(function))
        record(12, le(node) + le(UInt64(0)) + [0, 0, 0, 0] + le(ids.0) + le(ids.1) + le(ids.2) + le(line))
    }

    /// The closing snapshot, with the heap walk's budgets and flags (bit 2: memory unreadable;
    /// bit 3, set by default as a recorder does: the walk started from every object allocated
    /// while recording).
    mutating func snapshot(flags: UInt8 = 8) {
        record(16, le(UInt64(200_000)) + le(UInt64(10_000)) + [flags, 0, 0, 0] + le(UInt32(0)))
    }

    /// In the snapshot, an object the heap walk reached: by default a user object (category
    /// 0) allocated by the recorded code (allocation 2); a runtime entity (category 1) names
    /// its kind (2 subscription, 3 its disposable) and id. The address is stored xor-ed with
    /// the format's key.
    mutating func heapObject(
        _ id: UInt64, typeName: String, retainCount: UInt64 = 1, category: UInt8 = 0, entityKind: UInt8 = 0, entityID: UInt64 = 0,
        allocation: UInt8 = 2
    ) {
        let address = UInt64(0x1000 + id * 16) ^ 0xFFFF_0000_0000_0000
        record(19, le(id) + le(address) + le(string(typeName)) + [category, 0, entityKind, allocation] + le(retainCount) + le(entityID)
            + le(UInt64(0)))
    }

    /// In the snapshot, a strong reference held in a stored property.
    mutating func reference(from: UInt64, to: UInt64, path: String) {
        record(20, le(from) + le(to) + [0, 0, 0, 0] + le(string(path)) + le(UInt32.max) + [UInt8](repeating: 0, count: 20))
    }

    /// In the snapshot, a strong reference a closure the runtime keeps captures (`role`: `next
    /// closure`, `transform`, ...), the closure's context being the holder itself.
    mutating func capture(from: UInt64, to: UInt64, role: String) {
        let ids = (string(""), string(role))
        record(20, le(from) + le(to) + [1, 4, 0, 0] + le(ids.0) + le(UInt32.max) + le(UInt32(0)) + le(ids.1) + [UInt8](repeating: 0, count: 12))
    }

    mutating func alive(_ entity: Entity, _ id: UInt64, retainCount: UInt64) {
        record(17, [entity.rawValue, 0, 0, 0, 0, 0, 0, 0] + le(id) + le(retainCount))
    }

    mutating func end() { record(13, le(sequence)) }

    func write(to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    private mutating func string(_ text: String) -> UInt32 {
        if let id = strings[text] { return id }
        let id = UInt32(strings.count + 1)
        strings[text] = id
        record(1, le(id) + le(UInt32(text.utf8.count)) + Array(text.utf8))
        return id
    }

    private mutating func record(_ kind: UInt8, _ payload: [UInt8], timestamp: UInt64? = nil) {
        let size = (32 + payload.count + 7) & ~7
        bytes += le(UInt32(size)) + [kind, 0, 0, 0] + le(UInt32(1)) + le(UInt32(0)) + le(sequence)
            + le(timestamp ?? 1_000_000 + sequence * 1_000) + payload
        bytes += [UInt8](repeating: 0, count: size - 32 - payload.count)
        sequence += 1
    }

    private func le<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}
