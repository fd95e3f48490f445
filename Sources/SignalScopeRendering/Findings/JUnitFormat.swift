import SignalScopeAnalysis

/// JUnit XML: one test case per rule, a failure per failing finding, so that CI test
/// dashboards show leaks next to test results. Baseline and non-failing findings appear in
/// `system-out` of their rule's case instead. One more case, `complete-analysis`, fails
/// when the analysis could not see the whole heap.
public struct JUnitFormat: FindingsFormat {
    public let name = "junit"

    public init() {}

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
        let failures = report.failing.count + (report.isIncompleteFailing ? 1 : 0)
        let tests = RuleID.allCases.count + 1
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="signalscope" tests="\(tests)" failures="\(failures)">
              <testsuite name="signalscope.check" tests="\(tests)" failures="\(failures)" errors="0" skipped="0">

            """
        for rule in RuleID.allCases {
            let entries = report.entries.filter { $0.finding.rule == rule }
            xml += "    <testcase classname=\"signalscope\" name=\"\(rule)\">\n"
            for entry in entries where entry.isFailing {
                let finding = entry.finding
                xml += "      <failure type=\"\(finding.severity)\" message=\"\(XMLText.escaped("\(entry.path):\(finding.location.line): \(finding.message)"))\">"
                xml += "\(XMLText.escaped(entry.details))</failure>\n"
            }
            let passed = entries.filter { !$0.isFailing }
            if !passed.isEmpty {
                let text = passed.map { entry in
                    "\(entry.path):\(entry.finding.location.line): \(entry.finding.severity)\(entry.isBaseline ? " (baseline)" : ""): \(entry.finding.message)"
                }.joined(separator: "\n")
                xml += "      <system-out>\(XMLText.escaped(text))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "    <testcase classname=\"signalscope\" name=\"complete-analysis\">\n"
        if !report.limitations.isEmpty {
            let text = XMLText.escaped(report.limitations.joined(separator: "\n"))
            xml += report.isIncompleteFailing
                ? "      <failure type=\"incomplete\" message=\"the analysis could not see the whole heap\">\(text)</failure>\n"
                : "      <system-out>\(text)</system-out>\n"
        }
        xml += "    </testcase>\n"
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
