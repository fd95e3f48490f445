/// The page `signalscope live` serves while the program runs: the report's header,
/// findings and details panes and its style, with the nodes the program makes in place of
/// the graph and the events as they happen in place of the timeline, filled by
/// `Assets/live.js` from the server's push channel. When the program ends, the page becomes
/// the final report.
public enum LivePage {
    /// The page, titled `title` (the command).
    public static func html(title: String) -> String {
        ReportPage.head(title: XMLText.escaped(title)) + """
            <header>
              <strong>SignalScope</strong> <span id="title">\(XMLText.escaped(title))</span>
              <span id="live-status">connecting</span> <span id="summary"></span>
            </header>
            <aside id="findings"><h2>Findings</h2><ol id="finding-list"></ol></aside>
            <section id="graph"><div class="toolbar"><strong>Nodes</strong> <span class="hint">as the program makes them · a finding's are highlighted</span></div>
              <ol id="live-nodes"></ol></section>
            <aside id="details"><h2 id="details-title">Details</h2><div id="details-body"><p class="hint">Select a finding.</p></div></aside>
            <section id="timeline"><div class="toolbar"><strong>Events</strong> <span class="hint">the latest, as they happen</span></div>
              <div id="live-events-scroll"><ol id="live-events"></ol></div></section>
            <script>//<![CDATA[
            \(script)
            //]]></script>
            </body>
            </html>

            """
    }

    /// `Assets/live.js`.
    static let script = String(decoding: PackageResources.live_js, as: UTF8.self)
}
