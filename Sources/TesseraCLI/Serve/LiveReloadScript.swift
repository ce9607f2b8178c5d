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
      const status = { state: "connecting", role: "single" };
      window.__tesseraLiveReload = status;

      const overlayID = "\#(overlayID)";
      const name = "tessera-live-reload:" + location.host;
      let lostConnection = false;
      let lastErrors = null;

      function removeOverlay() {
        const overlay = document.getElementById(overlayID);
        if (overlay) overlay.remove();
      }

      function line(text, css, tag) {
        const element = document.createElement(tag || "div");
        element.textContent = text;
        element.style.cssText = css;
        return element;
      }

      // The errors of a failed build, over the page, as text only (messages quote the user's
      // content). Escape or the close button hides them; the next failed build shows them again.
      function showErrors(diagnostics) {
        removeOverlay();
        const overlay = document.createElement("div");
        overlay.id = overlayID;
        overlay.setAttribute("role", "alertdialog");
        overlay.setAttribute("aria-label", "Tessera build errors");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;box-sizing:border-box;" +
          "margin:0;padding:2rem;background:rgba(17,17,22,0.94);color:#f4f4f5;text-align:left;" +
          "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace";
        const close = line("Close ✕", "position:sticky;top:0;float:right;font:inherit;padding:0.25rem 0.75rem;" +
          "border:1px solid #a1a1aa;border-radius:6px;background:#27272a;color:#fafafa;cursor:pointer", "button");
        close.type = "button";
        close.className = "tessera-overlay-close";
        close.setAttribute("aria-label", "Close the build errors (Escape)");
        close.addEventListener("click", removeOverlay);
        overlay.append(close);
        const count = diagnostics.length === 1 ? "1 problem" : diagnostics.length + " problems";
        overlay.append(line("Tessera: the last build failed with " + count +
          ". The page shows the last good build; fix the problem and save to rebuild.",
          "font-weight:bold;color:#fca5a5;margin-bottom:1.5rem;white-space:pre-wrap"));
        for (const diagnostic of diagnostics) {
          const item = document.createElement("div");
          item.className = "tessera-diagnostic";
          item.style.cssText = "margin:0 0 1rem;padding:0.75rem 1rem;border-left:3px solid #f87171;background:rgba(255,255,255,0.05);white-space:pre-wrap";
          if (diagnostic.file) {
            item.append(line(diagnostic.file + ":" + diagnostic.line + ":" + diagnostic.column, "color:#93c5fd"));
          }
          item.append(line((diagnostic.severity || "error") + ": " + diagnostic.message, "color:#fafafa"));
          if (diagnostic.excerpt) {
            const excerpt = line(diagnostic.excerpt, "margin:0.5rem 0;padding:0.5rem;overflow-x:auto;background:rgba(0,0,0,0.35);color:#e4e4e7;font:inherit;white-space:pre", "pre");
            excerpt.className = "tessera-excerpt";
            item.append(excerpt);
          }
          if (diagnostic.hint) item.append(line("hint: " + diagnostic.hint, "color:#fde68a"));
          overlay.append(item);
        }
        (document.body || document.documentElement).append(overlay);
        close.focus();
      }

      document.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && document.getElementById(overlayID)) removeOverlay();
      });

      // The page as now built names its stylesheets (fingerprinted names, integrity hashes):
      // each link takes its new name; a name that did not change is fetched again. A page whose
      // stylesheets are not the same links in number is reloaded.
      async function refreshStylesheets() {
        const current = [...document.querySelectorAll('link[rel~="stylesheet"]')];
        let next;
        try {
          const response = await fetch(location.href, { cache: "no-store" });
          const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
          next = [...fresh.querySelectorAll('link[rel~="stylesheet"]')];
        } catch (error) {
          location.reload();
          return;
        }
        if (next.length !== current.length) { location.reload(); return; }
        current.forEach((link, index) => {
          const href = next[index].getAttribute("href");
          if (next[index].hasAttribute("integrity")) link.setAttribute("integrity", next[index].getAttribute("integrity"));
          else link.removeAttribute("integrity");
          if (link.getAttribute("href") !== href) { link.setAttribute("href", href); return; }
          const url = new URL(link.href, location.href);
          url.searchParams.set("tessera", String(Date.now()));
          link.href = url.href;
        });
      }

      // What every tab does with an event, whether it heard it itself or from the tab that listens.
      function handle(event, data) {
        switch (event) {
          case "connected": status.state = "connected"; break;
          case "reload": location.reload(); break;
          case "css": lastErrors = null; removeOverlay(); refreshStylesheets(); break;
          case "errors": {
            lastErrors = data;
            let diagnostics = [];
            try {
              diagnostics = JSON.parse(data).diagnostics || [];
            } catch (error) {
              diagnostics = [{ message: "could not read the build's errors: " + error }];
            }
            showErrors(diagnostics);
            break;
          }
        }
      }

      // One connection for all the site's tabs: browsers allow six connections a host, so six
      // tabs each holding an event stream would leave a seventh unable to load. The tab holding
      // the lock listens and passes every event on over a BroadcastChannel; when it closes or
      // reloads, another tab takes the lock. Without those APIs, each tab listens for itself.
      const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : null;
      const shared = channel && navigator.locks && typeof navigator.locks.request === "function";

      function connect(share) {
        const source = new EventSource("/__tessera/events");
        const pass = (event, data) => {
          if (share) channel.postMessage({ event: event, data: data });
          handle(event, data);
        };
        source.addEventListener("open", () => {
          if (lostConnection) pass("reload", "");
        });
        // Sent once the server has subscribed this page: from here on no rebuild is missed.
        source.addEventListener("connected", () => pass("connected", ""));
        source.addEventListener("reload", () => pass("reload", ""));
        source.addEventListener("css", () => pass("css", ""));
        source.addEventListener("errors", (event) => pass("errors", event.data));
        source.addEventListener("error", () => {
          lostConnection = true;
          status.state = "reconnecting";
          // EventSource retries by itself after a dropped connection, but gives up for good after
          // an HTTP error; start over then.
          if (source.readyState === EventSource.CLOSED) {
            source.close();
            setTimeout(() => connect(share), 1000);
          }
        });
      }

      if (shared) {
        status.role = "follower";
        channel.addEventListener("message", (message) => {
          const { event, data } = message.data || {};
          if (event === "hello") {
            // A tab that just opened: tell it whether the stream is up, and the current errors.
            if (status.role === "leader" && status.state === "connected") {
              channel.postMessage({ event: "connected", data: "" });
              if (lastErrors) channel.postMessage({ event: "errors", data: lastErrors });
            }
            return;
          }
          if (status.role !== "leader") handle(event, data);
        });
        navigator.locks.request(name, () => new Promise(() => {
          // Held until this tab goes away.
          status.role = "leader";
          connect(true);
        }));
        channel.postMessage({ event: "hello", data: "" });
      } else {
        connect(false);
      }
    })();
    """#
}
