#!/usr/bin/env python3
"""Clicks every link an HTML report shows, in every panel, and says what happened.

Usage: click_every_link.py REPORT.html

Opens the report in the system Chromium (Playwright, scripts/setup.sh installs it), once for
the page as it opens and once for each node, finding and event selected (the panels that
show sites), and clicks each link on it in a fresh copy of the page. Prints one JSON object:
every link's href, every dialog a script opened, every page whose title changed (what a
script run from a link would do) and every URL a click led to. The Swift test judges it.
"""
import json
import sys

from playwright.sync_api import sync_playwright


def main():
    report = sys.argv[1]
    base = "file://" + report
    seen = {"hrefs": [], "dialogs": [], "titleChanges": [], "destinations": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))

        def open_at(fragment):
            page.goto("about:blank")
            page.goto(base + fragment)
            page.wait_for_selector('[data-ready="true"]', state="attached", timeout=10_000)

        open_at("")
        data = page.evaluate("JSON.parse(document.getElementById('signalscope-data').textContent)")
        fragments = [""]
        fragments += [f"#node={node['id']}" for node in data["nodes"]]
        fragments += [f"#finding={index}" for index in range(len(data["findings"]))]
        fragments += [f"#event={index}" for index in range(min(len(data["events"]), 20))]
        for fragment in fragments:
            open_at(fragment)
            count = page.locator("a[href]").count()
            for index in range(count):
                open_at(fragment)
                link = page.locator("a[href]").nth(index)
                if not link.is_visible():
                    continue
                href = link.get_attribute("href")
                seen["hrefs"].append(href)
                title = page.title()
                try:
                    link.click(timeout=2_000, no_wait_after=True)
                except Exception:
                    continue
                page.wait_for_timeout(200)
                if page.url.startswith(base) and page.title() != title:
                    seen["titleChanges"].append({"href": href, "title": page.title()})
                if not page.url.startswith(base):
                    seen["destinations"].append(page.url)
        browser.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
