/// Ticks and labels for a time axis in nanoseconds: round steps (1, 2 or 5 times a power
/// of ten) so that about eight ticks span the range, labelled in the unit that reads best.
public enum TimeAxis {
    /// The tick times from 0 up to `duration`.
    public static func ticks(upTo duration: UInt64, about count: Int = 8) -> [UInt64] {
        guard duration > 0 else { return [0] }
        let step = self.step(for: duration, about: count)
        return Array(stride(from: 0, through: duration, by: Int(step)).map { UInt64($0) })
    }

    /// The round step for about `count` ticks over `duration`.
    public static func step(for duration: UInt64, about count: Int = 8) -> UInt64 {
        let rough = max(duration / UInt64(max(count, 1)), 1)
        var power: UInt64 = 1
        while power * 10 <= rough { power *= 10 }
        for multiple: UInt64 in [1, 2, 5] where power * multiple >= rough { return power * multiple }
        return power * 10
    }

    /// `nanoseconds` as text: `0`, `250 ns`, `1.5 µs`, `12 ms`, `2.25 s`.
    public static func label(_ nanoseconds: UInt64) -> String {
        if nanoseconds == 0 { return "0" }
        let units: [(UInt64, String)] = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs")]
        for (size, unit) in units where nanoseconds >= size {
            return "\(decimal(nanoseconds, size)) \(unit)"
        }
        return "\(nanoseconds) ns"
    }

    /// `value / size` with up to two decimals, trailing zeros dropped.
    private static func decimal(_ value: UInt64, _ size: UInt64) -> String {
        // Whole and remainder apart: `value * 100` could overflow.
        var whole = value / size
        var fraction = (value % size * 100 + size / 2) / size
        if fraction == 100 {
            whole += 1
            fraction = 0
        }
        var text = "\(whole)"
        if fraction != 0 { text += "." + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")) }
        return text
    }
}
