/// The report page's fixed parts: markup, style and script (the last two are the files in
/// `Assets/`). Everything that varies is in the data section; the script reads it and puts
/// every string from it on the page with `textContent` (never as markup), so a hostile name
/// stays text.
///
/// The page is XHTML-compatible (well-formed XML, style and script in CDATA sections), so
/// tests can parse it with an XML parser as well as open it in a browser.
enum ReportPage {
    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(title) · SignalScope report</title>
        <style>/*<![CDATA[*/\(style)/*]]>*/</style>
        </head>
        <body>

        """
    }

    static let body = """
        <header>
          <strong>SignalScope</strong> <span id="title"></span>
          <span id="live-status" hidden="hidden"></span>
          <nav id="processes" hidden="hidden"></nav>
          <span id="summary"></span>
          <span class="spacer"></span>
          <input id="search" type="search" placeholder="Search nodes by name, type or file" autocomplete="off"/>
          <ul id="search-results" hidden="hidden"></ul>
        </header>
        <aside id="findings"><h2>Findings</h2><div id="limitations"></div><ol id="finding-list"></ol></aside>
        <section id="graph">
          <div class="toolbar"><button id="graph-fit" type="button">Fit</button><button id="graph-in" type="button">+</button><button id="graph-out" type="button">−</button>
            <span class="hint">drag to pan · wheel to zoom · click a node</span></div>
          <div id="graph-view"></div>
        </section>
        <aside id="details"><h2 id="details-title">Details</h2><div id="details-body"><p class="hint">Select a finding, a node in the graph or an event in the timeline. Selecting an event shows the chain of events that caused it.</p></div></aside>
        <section id="timeline">
          <div class="toolbar"><strong>Timeline</strong> <span id="clock"></span>
            <button id="time-in" type="button">+</button><button id="time-out" type="button">−</button><button id="time-reset" type="button">All</button>
            <span class="legend"><i class="mk n"></i>value <i class="mk c"></i>completed <i class="mk e"></i>error <i class="mk d"></i>disposed <i class="mk o"></i>still live <b>×3</b> identical lanes <i class="mk f"></i>on the selected finding <i class="mk s"></i>selected event and its causes</span>
            <span class="hint">click an event · ctrl+wheel or +/− to zoom · drag to pan</span></div>
          <div id="lanes-scroll"><canvas id="lanes"></canvas><div id="lanes-space"></div></div>
          <div id="tip" hidden="hidden"></div>
        </section>
        <script>//<![CDATA[
        \(script)
        //]]></script>
        </body>
        </html>

        """

    /// `Assets/report.css`.
    static let style = EmbeddedText.report_css

    /// `Assets/report.js`: its logic is tested under Node (`Tests/JavaScript`).
    static let script = EmbeddedText.report_js
}
