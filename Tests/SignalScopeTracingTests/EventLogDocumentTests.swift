import Foundation
import SignalScope
import Testing

@testable import SignalScopeTracing

/// docs/event-log.md against the record types that write and read the format: each is the
/// other's check, so neither can drift.
@Suite(.timeLimit(.minutes(10))) struct EventLogDocumentTests {
    /// The document's table of kinds: kind number, name and the typed fields of the payload
    /// column (`u64 node`, `u8[2] 0`), in order.
    private static func documentedKinds() throws -> [(kind: String, name: String, fields: [String])] {
        let document = try String(contentsOf: repositoryRoot.appending(path: "docs/event-log.md"), encoding: .utf8)
        let table = try #require(document.components(separatedBy: "### Kinds and payloads").dropFirst().first)
        let field = try Regex(#"`((?:u8|u16|u32|u64|i64)(?:\[\d+\])? (?:\w+))`"#)
        return table.split(separator: "\n").prefix { !$0.hasPrefix("#") }.compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].first?.isNumber == true else { return nil }
            return (cells[1], cells[2], cells[3].matches(of: field).map { String($0.output[1].substring!) })
        }
    }

    private static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func everyRecordKindIsDocumentedAsItsTypeLaysItOut() throws {
        let documented = try Self.documentedKinds()
        for record in EventRecords.all {
            let row = try #require(documented.first { $0.kind == "\(record.kind)" }, "kind \(record.kind) (\(record.name)) has no row")
            #expect(row.name == record.name, "kind \(record.kind)")
            let typed = RecordLayout.of(record).filter { $0 != "bytes" && !$0.hasPrefix("per ") }
            #expect(row.fields == typed, "kind \(record.kind) (\(record.name)): the document says \(row.fields), the code \(typed)")
        }
    }

    @Test func theDocumentNamesNoKindTheFormatLacks() throws {
        let known = Set(EventRecords.all.map { "\($0.kind)" })
        #expect(try Self.documentedKinds().contains { $0.kind == "\(EventLogFormat.batchKind)" && $0.name == "batch" })
        for row in try Self.documentedKinds() where !row.name.isEmpty && row.name != "padding" && row.name != "batch" {
            #expect(known.contains(row.kind), "the document's kind \(row.kind) (\(row.name)) is no record type's")
        }
        #expect(Set(EventRecords.all.map { $0.kind }).count == EventRecords.all.count)
    }

    /// The (offset, size, field) rows of the table in the document's section `heading`.
    private static func layoutTable(under heading: String) throws -> [(offset: Int, size: Int, field: String)] {
        let document = try String(contentsOf: repositoryRoot.appending(path: "docs/event-log.md"), encoding: .utf8)
        let section = try #require(document.components(separatedBy: heading).dropFirst().first?.components(separatedBy: "\n#").first)
        return section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let offset = Int(cells[0]), let size = Int(cells[1]) else { return nil }
            return (offset, size, cells[2])
        }
    }

    /// The sizes of the fields of `Fields`, in order.
    private static func fieldSizes<Fields: RecordFields>(_: Fields.Type) -> [Int] {
        RecordLayout.of(Fields.self).map { field -> Int in
            if field.hasPrefix("u8[") { return Int(field.dropFirst(3).prefix { $0 != "]" })! }
            return ["u8": 1, "u16": 2, "u32": 4, "u64": 8][String(field.prefix { $0 != " " })]!
        }
    }

    /// The header's table: the magic, and the versions this build writes, where `header()`
    /// puts them.
    @Test func theHeaderTableMatchesTheHeaderWritten() throws {
        let table = try Self.layoutTable(under: "### Header (16 bytes)")
        #expect(table.map(\.offset) == [0, 8, 10, 12])
        #expect(table.map(\.size).reduce(0, +) == EventLogFormat.headerSize)
        #expect(table.first?.field.contains("`\(String(decoding: EventLogFormat.magic, as: UTF8.self))`") == true)
        let header = EventLogFormat.header()
        func documented(_ row: Int) -> String? { table.indices.contains(row) ? table[row].field : nil }
        #expect(documented(1) == "major version: \(UInt16(header[8]) | UInt16(header[9]) << 8)")
        #expect(documented(2) == "minor version: \(UInt16(header[10]) | UInt16(header[11]) << 8)")
    }

    @Test func thePrefixTableMatchesTheRecordPrefix() throws {
        let table = try Self.layoutTable(under: "### Records")
        let layout = Self.fieldSizes(RecordPrefix.self)
        #expect(table.map(\.size) == layout)
        #expect(table.map(\.offset) == layout.indices.map { layout[..<$0].reduce(0, +) })
        #expect(layout.reduce(0, +) == EventLogFormat.prefixSize)
        // The kind is where the writer and the first pass read it without decoding a prefix.
        let kindRow = try #require(table.firstIndex { $0.field.hasPrefix("kind") })
        #expect(table[kindRow].offset == EventLogFormat.kindOffset && table[kindRow].size == 1)
    }

    @Test func theCompactTableMatchesTheCompactRecord() throws {
        let table = try Self.layoutTable(under: "### Batches and compact records")
        let layout = Self.fieldSizes(CompactRecord.self)
        #expect(table.map(\.size) == layout)
        #expect(table.map(\.offset) == layout.indices.map { layout[..<$0].reduce(0, +) })
        #expect(layout.reduce(0, +) == EventLogFormat.compactSize)
        #expect(table.first?.field == "form: \(EventLogFormat.compactForm)")
        // The kinds the table says have a compact form are those that do.
        let kindRow = try #require(table.first { $0.field.hasPrefix("kind:") }).field
        let documented = kindRow.matches(of: try Regex(#"(\d+) (\w+)"#)).map { "\($0.output[1].substring!) \($0.output[2].substring!)" }
        let compact = EventRecords.all.compactMap { $0 as? any CompactEventRecord.Type }.map { "\($0.kind) \($0.name)" }
        #expect(documented == compact)
    }

    /// Every record type reads back what it wrote, for any field values, and refuses a
    /// payload cut short.
    @Test func everyRecordTypeReadsWhatItWrites() throws {
        var random = SystemRandomNumberGenerator()
        for record in EventRecords.all {
            for _ in 0..<50 {
                try Self.roundTrip(record, using: &random)
            }
        }
    }

    @Test func aFieldAMinorVersionAppendedReadsAsZeroInAnOlderLog() throws {
        var record = RetainedRecord(watch: 3, withinNanoseconds: 1_000_000, lateNanoseconds: 44_000_000_000)
        record.links = [RetainedRecord.Link()]
        let written = Self.bytes(of: record)
        let late = try #require(written.withUnsafeBytes { RetainedRecord(payload: $0) })
        #expect(late.lateNanoseconds == 44_000_000_000)
        // Format 3.0 wrote the payload without `late`, and 3.3 without the chain start's counts.
        let older = try #require(Array(written.dropLast(32)).withUnsafeBytes { RetainedRecord(payload: $0) })
        #expect(older.lateNanoseconds == 0 && older.watch == 3 && older.links.count == 1)
    }

    /// Format 3.4 writes what the snapshot counted of a chain's first object, and the reader
    /// judges what holds it; an older log's verdict bits are read as they were written.
    @Test func whatHoldsARetainedChainIsJudgedWhenTheLogIsRead() throws {
        func retained(_ record: RetainedRecord) throws -> RetainedObject {
            let written = Self.bytes(of: record)
            let read = try #require(written.withUnsafeBytes { RetainedRecord(payload: $0) })
            guard case .extended(let event)? = read.event(strings: LogStrings()), let object = event.payload as? RetainedObject else {
                Issue.record("a retained record reads as a retained object")
                throw CancellationError()
            }
            return object
        }
        var counted = RetainedRecord(watch: 1, flags: RetainedRecord.hasStartCounts)
        (counted.startRetainCount, counted.startExactReferences) = (3, 2)
        #expect(try retained(counted).isHeldFromOutside)
        #expect(try retained(counted).start == TraceHeap.Holding(retainCount: 3, exactReferences: 2, inexactReferences: 0))
        counted.startInexactReferences = 1
        // The bits say otherwise; the counts are what a 3.4 reader judges.
        counted.flags |= 16
        #expect(try !retained(counted).isHeldFromOutside && retained(counted).onlyInexactHolders)
        counted.startExactReferences = 3
        counted.startInexactReferences = 0
        #expect(try !retained(counted).isHeldFromOutside && !retained(counted).onlyInexactHolders)
        let older = RetainedRecord(watch: 1, flags: 16)
        #expect(try retained(older).isHeldFromOutside && retained(older).start == nil)
    }

    /// A record kind as a contributor adds one, in one file: its layout, and its event as a
    /// payload of its own, which `TraceEvent` carries without a case for it.
    struct RetriedRecord: EventRecord, TraceEventPayload {
        static let kind: UInt8 = 200
        static let name = "retried"
        var subscription: SubscriptionID? { SubscriptionID(rawValue: subscriptionID) }
        var subscriptionID: UInt64 = 0
        var attempt: UInt32 = 0

        mutating func fields(_ visitor: inout some RecordFieldVisitor) {
            visitor.visit(&subscriptionID, "subscription")
            visitor.visit(&attempt, "attempt")
        }

        func event(strings: LogStrings) -> TraceEvent? { .extended(ExtendedEvent(self)) }

        var name: String { "retried" }
        var exportedFields: [(key: String, value: String)] { [("subscription", "s\(subscriptionID)"), ("attempt", "\(attempt)")] }
    }

    @Test func aRecordKindOfOneFileDecodesToAnEventNothingElseNeedsToKnow() throws {
        let record = RetriedRecord(subscriptionID: 7, attempt: 3)
        var bytes = [UInt8](repeating: 0, count: record.payloadSize)
        bytes.withUnsafeMutableBytes { record.write(to: $0.baseAddress!) }
        let event = try #require(bytes.withUnsafeBytes { RetriedRecord.decode($0, strings: LogStrings()) })
        #expect(event == .extended(ExtendedEvent(record)))
        #expect(event.name == "retried" && event.subscription == SubscriptionID(rawValue: 7))
        #expect(RecordLayout.of(RetriedRecord.self) == ["u64 subscription", "u32 attempt"])
    }

    private static func roundTrip<Record: EventRecord>(_: Record.Type, using random: inout SystemRandomNumberGenerator) throws {
        var filler = RandomFields(random: random)
        var record = Record()
        record.fields(&filler)
        let written = bytes(of: record)
        let read = try #require(written.withUnsafeBytes { Record(payload: $0) }, "\(Record.name)")
        #expect(bytes(of: read) == written, "\(Record.name)")
        for cut in [written.count - 1, written.count / 2, 0] where cut < written.count {
            let short = Array(written.prefix(cut))
            #expect(short.withUnsafeBytes { Record(payload: $0) } == nil, "\(Record.name) cut to \(cut) bytes")
        }
    }

    private static func bytes(of record: some RecordFields) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: record.payloadSize)
        bytes.withUnsafeMutableBytes { record.write(to: $0.baseAddress!) }
        return bytes
    }

    /// Sets every field to a random value.
    private struct RandomFields: RecordFieldVisitor {
        var random: SystemRandomNumberGenerator

        mutating func visit(_ value: inout UInt8, _ name: StaticString) { value = .random(in: .min ... .max, using: &random) }
        mutating func visit(_ value: inout UInt16, _ name: StaticString) { value = .random(in: .min ... .max, using: &random) }
        mutating func visit(_ value: inout UInt32, _ name: StaticString) { value = .random(in: .min ..< .max, using: &random) }
        mutating func visit(_ value: inout UInt64, _ name: StaticString) { value = .random(in: .min ... .max, using: &random) }
        mutating func visit(_ value: inout Int64, _ name: StaticString) { value = .random(in: .min ... .max, using: &random) }
        mutating func zeros(_ count: Int) {}
        mutating func text(_ value: inout String?, _ lengthName: StaticString) {
            value = Bool.random(using: &random) ? nil : String((0..<Int.random(in: 0...40, using: &random)).map { _ in "aé✓🙂".randomElement(using: &random)! })
        }
        mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString) {
            elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                var element = Element()
                element.fields(&self)
                return element
            }
        }
        mutating func appended(_ value: inout UInt64, _ name: StaticString) { value = .random(in: .min ... .max, using: &random) }
    }
}
