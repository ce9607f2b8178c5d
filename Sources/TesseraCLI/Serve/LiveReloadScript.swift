/// The script the preview injects into every page: it listens to `/__tessera/events` and reloads
/// the page, swaps stylesheets, or shows the last build's errors over the page.
///
/// Diagnostics are put on the page with `textContent` only: a message quotes the user's content,
/// which may hold markup. After a lost connection (the server restarted) the page reloads, since
/// whatever it shows may be stale. `window.__tesseraLiveReload.state` says whether the page is
/// listening (`connected`), for people poking at the console and for the browser tests.
enum LiveReloadScript {
    static let overlayID = "tessera-error-overlay"

    static let source = #"""
    (() => {
      "use strict";
      if (window.__tesseraLiveReload) return;
      const status = { state: "connecting" };
      window.__tesseraLiveReload = status;

      const overlayID = "\#(overlayID)";
      let lostConnection = false;

      function removeOverlay() {
        const overlay = document.getElementById(overlayID);
        if (overlay) overlay.remove();
      }

      function line(text, css) {
        const element = document.createElement("div");
        element.textContent = text;
        element.style.cssText = css;
        return element;
      }

      function showErrors(diagnostics) {
        removeOverlay();
        const overlay = document.createElement("div");
        overlay.id = overlayID;
        overlay.setAttribute("role", "alert");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;box-sizing:border-box;" +
          "margin:0;padding:2rem;background:rgba(17,17,22,0.94);color:#f4f4f5;text-align:left;white-space:pre-wrap;" +
          "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace";
        const count = diagnostics.length === 1 ? "1 problem" : diagnostics.length + " problems";
        overlay.append(line("Tessera: the last build failed with " + count +
          ". The page shows the last good build; fix the problem and save to rebuild.",
          "font-weight:bold;color:#fca5a5;margin-bottom:1.5rem"));
        for (const diagnostic of diagnostics) {
          const item = document.createElement("div");
          item.className = "tessera-diagnostic";
          item.style.cssText = "margin:0 0 1rem;padding:0.75rem 1rem;border-left:3px solid #f87171;background:rgba(255,255,255,0.05)";
          if (diagnostic.file) {
            item.append(line(diagnostic.file + ":" + diagnostic.line + ":" + diagnostic.column, "color:#93c5fd"));
          }
          item.append(line((diagnostic.severity || "error") + ": " + diagnostic.message, "color:#fafafa"));
          if (diagnostic.hint) item.append(line("hint: " + diagnostic.hint, "color:#fde68a"));
          overlay.append(item);
        }
        (document.body || document.documentElement).append(overlay);
      }

      function refreshStylesheets() {
        for (const link of document.querySelectorAll('link[rel~="stylesheet"]')) {
          const url = new URL(link.href, location.href);
          url.searchParams.set("tessera", String(Date.now()));
          link.href = url.href;
        }
      }

      function connect() {
        const source = new EventSource("/__tessera/events");
        source.addEventListener("open", () => {
          if (lostConnection) location.reload();
        });
        // Sent once the server has subscribed this page: from here on no rebuild is missed.
        source.addEventListener("connected", () => {
          status.state = "connected";
        });
        source.addEventListener("reload", () => location.reload());
        source.addEventListener("css", () => {
          removeOverlay();
          refreshStylesheets();
        });
        source.addEventListener("errors", (event) => {
          let diagnostics = [];
          try {
            diagnostics = JSON.parse(event.data).diagnostics || [];
          } catch (error) {
            diagnostics = [{ message: "could not read the build's errors: " + error }];
          }
          showErrors(diagnostics);
        });
        source.addEventListener("error", () => {
          lostConnection = true;
          status.state = "reconnecting";
          // EventSource retries by itself after a dropped connection, but gives up for good after
          // an HTTP error; start over then.
          if (source.readyState === EventSource.CLOSED) {
            source.close();
            setTimeout(connect, 1000);
          }
        });
      }

      connect();
    })();
    """#
}
