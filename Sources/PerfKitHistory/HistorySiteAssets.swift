/// The history site's page: its style and script, written inside `index.html` so nothing is loaded from elsewhere.
enum HistorySiteAssets {
    /// The page, with `title` (escaped already) and the model's JSON (`</` escaped already).
    static func page(title: String, data: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <style>\(style)</style>
        </head>
        <body>
        <header><h1>\(title)</h1>
        <input id="filter" type="search" placeholder="Filter benchmarks by name" aria-label="Filter benchmarks">
        <span id="summary"></span></header>
        <section id="front"><h2>Changes found</h2><table id="changes"><thead><tr><th>commit</th><th>series</th>
        <th>change</th><th>verdict</th></tr></thead><tbody></tbody></table></section>
        <main id="benchmarks"></main>
        <div id="tip" role="tooltip" hidden></div>
        <script id="perfkit-data" type="application/json">\(data)</script>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    static let style = """
        body { font: 14px -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0;
          color: #1f2328; background: #fff; }
        header { position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px;
          display: flex; gap: 16px; align-items: center; z-index: 2; }
        h1 { font-size: 18px; margin: 0; } h2 { font-size: 16px; margin: 16px 16px 8px; }
        #filter { flex: 0 1 360px; padding: 4px 8px; border: 1px solid #d0d7de; border-radius: 6px; }
        #summary { color: #59636e; }
        table { border-collapse: collapse; margin: 0 16px; } td, th { padding: 3px 10px; text-align: left;
          border-bottom: 1px solid #eaeef2; } th { color: #59636e; font-weight: 600; }
        .regressed { color: #cf222e; font-weight: 600; } .improved { color: #1a7f37; font-weight: 600; }
        .benchmark { margin: 12px 16px 24px; } .benchmark h3 { font-size: 15px; margin: 8px 0; }
        .chart { position: relative; margin: 4px 0 12px; } .chart .unit { color: #59636e; font-size: 12px; }
        canvas { width: 100%; height: 220px; display: block; border: 1px solid #eaeef2; border-radius: 6px; }
        .legend { font-size: 12px; color: #59636e; display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 4px; }
        .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
        #tip { position: fixed; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 8px;
          font-size: 12px; pointer-events: none; box-shadow: 0 3px 12px rgba(0,0,0,.12); max-width: 420px; z-index: 3; }
        #tip .env { color: #59636e; } #tip .diff { color: #9a6700; }
        """

    static let script = """
        "use strict";
        const data = JSON.parse(document.getElementById("perfkit-data").textContent);
        const colors = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf8700", "#1b7c83", "#e16f24", "#6e7781"];
        const short = (hash) => hash.slice(0, 7);
        const commitLink = (index) => data.commitURL
          ? data.commitURL.split("{commit}").join(encodeURIComponent(data.commits[index][0])) : null;
        const format = (value, unit) => {
          if (unit === "ns") {
            for (const [scale, name] of [[1e9, "s"], [1e6, "ms"], [1e3, "µs"]]) {
              if (Math.abs(value) >= scale) return (value / scale).toPrecision(4) + " " + name;
            }
            return value.toPrecision(4) + " ns";
          }
          const number = value.toLocaleString("en", { maximumSignificantDigits: 7 });
          return unit === "count" || unit === "" ? number : number + " " + unit;
        };
        const tick = (value, unit) => unit === "ns" ? format(value, unit) : value.toLocaleString("en", { \
        maximumSignificantDigits: 6 });
        const percent = (ratio) => (ratio >= 1 ? "+" : "") + ((ratio - 1) * 100).toPrecision(3) + "%";
        function cell(row, text, className) {
          const td = row.insertCell(); td.textContent = text; if (className) td.className = className; return td;
        }
        function front() {
          const body = document.querySelector("#changes tbody");
          for (const change of data.changes) {
            const row = body.insertRow();
            const commit = row.insertCell(); const link = document.createElement("a");
            link.textContent = short(data.commits[change.commit][0]);
            link.href = commitLink(change.commit) || "#" + change.benchmark; commit.appendChild(link);
            const series = row.insertCell(); const anchor = document.createElement("a");
            anchor.href = "#" + change.benchmark; anchor.textContent = change.line; series.appendChild(anchor);
            cell(row, percent(change.ratio)); cell(row, change.verdict, change.verdict);
          }
          if (!data.changes.length) cell(body.insertRow(), "No change point in this store.");
        }
        // A line's points, rebuilt from its columns once: [commit, value, lower, upper, environment, changed].
        function points(line) {
          if (line.points) return line.points;
          const runs = new Map(line.environments.map(([at, env], k) => [at, [env, k > 0]]));
          let env = -1;
          line.points = line.values.map((value, k) => {
            const run = runs.get(k); if (run) env = run[0];
            const commit = line.commits ? line.commits[k] : line.start + k;
            return [commit, value, line.lower ? line.lower[k] : value, line.upper ? line.upper[k] : value, env,
              run && run[1] ? 1 : 0];
          });
          return line.points;
        }
        function draw(canvas, chart) {
          const ratio = window.devicePixelRatio || 1;
          const width = canvas.clientWidth, height = canvas.clientHeight;
          canvas.width = width * ratio; canvas.height = height * ratio;
          const g = canvas.getContext("2d"); g.scale(ratio, ratio);
          const left = 90, right = 12, top = 12, bottom = 22;
          let lo = Infinity, hi = -Infinity, first = Infinity, last = -Infinity;
          for (const line of chart.lines) for (const p of points(line)) {
            lo = Math.min(lo, p[2], p[1]); hi = Math.max(hi, p[3], p[1]);
            first = Math.min(first, p[0]); last = Math.max(last, p[0]);
          }
          if (!(hi > lo)) { hi = lo + Math.max(1, Math.abs(lo) * 0.01); }
          if (!(last > first)) { last = first + 1; }
          const pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
          const x = (c) => left + (c - first) / (last - first) * (width - left - right);
          const y = (v) => top + (hi - v) / (hi - lo) * (height - top - bottom);
          g.font = "11px sans-serif"; g.fillStyle = "#59636e"; g.strokeStyle = "#eaeef2";
          for (let k = 0; k <= 4; k++) {
            const v = lo + (hi - lo) * k / 4; g.beginPath(); g.moveTo(left, y(v)); g.lineTo(width - right, y(v)); \
        g.stroke();
            g.fillText(tick(v, chart.unit), 4, y(v) + 4);
          }
          g.fillText(short(data.commits[first][0]), left, height - 6);
          const end = short(data.commits[last][0]); g.fillText(end, width - right - g.measureText(end).width, height \
        - 6);
          chart.screen = [];
          chart.lines.forEach((line, n) => {
            const color = colors[n % colors.length];
            g.strokeStyle = color; g.lineWidth = 1.5; g.beginPath();
            line.points.forEach((p, k) => { k ? g.lineTo(x(p[0]), y(p[1])) : g.moveTo(x(p[0]), y(p[1])); });
            g.stroke();
            for (const p of line.points) {
              chart.screen.push([x(p[0]), y(p[1]), n, p]);
              if (p[5]) { g.fillStyle = "#9a6700"; g.fillRect(x(p[0]) - 2, height - bottom + 2, 4, 4); }
            }
            for (const c of line.changes) {
              const p = line.points.find((q) => q[0] === c[0]); if (!p) continue;
              g.fillStyle = c[2] > 0 ? "#cf222e" : c[2] < 0 ? "#1a7f37" : "#59636e";
              g.beginPath(); g.arc(x(p[0]), y(p[1]), 5, 0, 2 * Math.PI); g.fill();
              g.fillText(short(data.commits[c[0]][0]), x(p[0]) + 7, y(p[1]) - 7);
            }
          });
          canvas.dataset.drawn = "1";
          document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
          // When the last chart so far was drawn, in ms since the page started loading (the scale benchmark reads it).
          document.body.dataset.lastDrawMs = performance.now().toFixed(0);
        }
        function tip(event, canvas, chart) {
          const box = canvas.getBoundingClientRect(), mx = event.clientX - box.left, my = event.clientY - box.top;
          let best = null, distance = 400;
          for (const s of chart.screen || []) {
            const d = (s[0] - mx) ** 2 + (s[1] - my) ** 2; if (d < distance) { distance = d; best = s; }
          }
          const element = document.getElementById("tip");
          if (!best) { element.hidden = true; canvas.style.cursor = ""; return null; }
          const [, , n, p] = best, commit = data.commits[p[0]], line = chart.lines[n];
          element.replaceChildren();
          const add = (text, className) => {
            const div = document.createElement("div"); div.textContent = text;
            if (className) div.className = className; element.appendChild(div);
          };
          add(short(commit[0]) + " " + commit[1]);
          add(line.label + ": " + format(p[1], chart.unit) + " [" + format(p[2], chart.unit) + " … " + format(p[3], \
        chart.unit) + "]");
          if (p[4] >= 0) for (const field of data.environments[p[4]]) add(field, "env");
          if (p[5]) {
            // What changed from the point before, field by field.
            const all = points(line), k = all.indexOf(p), before = k > 0 ? all[k - 1][4] : -1;
            const old = before >= 0 ? data.environments[before] : [];
            for (const field of data.environments[p[4]] || []) {
              const name = field.split(":")[0], was = old.find((f) => f.split(":")[0] === name);
              if (was !== field) add("changed: " + (was || name + ": none") + " → " + field.slice(name.length + 2), \
        "diff");
            }
          }
          element.style.left = (event.clientX + 14) + "px"; element.style.top = (event.clientY + 14) + "px";
          element.hidden = false; canvas.style.cursor = commitLink(p[0]) ? "pointer" : "";
          return p[0];
        }
        function benchmarks() {
          const main = document.getElementById("benchmarks");
          const observer = "IntersectionObserver" in window ? new IntersectionObserver((seen) => {
            for (const entry of seen) if (entry.isIntersecting && !entry.target.dataset.drawn) {
              draw(entry.target, entry.target.chart); observer.unobserve(entry.target);
            }
          }, { rootMargin: "400px" }) : null;
          let drawnAtOnce = 0;
          for (const benchmark of data.benchmarks) {
            const section = document.createElement("section"); section.className = "benchmark";
            section.id = benchmark.id; section.dataset.name = benchmark.name.toLowerCase();
            const heading = document.createElement("h3"); heading.textContent = benchmark.name;
            section.appendChild(heading); main.appendChild(section);
            for (const chart of benchmark.charts) {
              const box = document.createElement("div"); box.className = "chart";
              const unit = document.createElement("div"); unit.className = "unit"; unit.textContent = chart.unit;
              const canvas = document.createElement("canvas"); canvas.chart = chart;
              canvas.setAttribute("aria-label", benchmark.name + " (" + chart.unit + ")");
              canvas.addEventListener("mousemove", (e) => tip(e, canvas, chart));
              canvas.addEventListener("mouseleave", () => { document.getElementById("tip").hidden = true; });
              canvas.addEventListener("click", (e) => { const c = tip(e, canvas, chart); const url = c === null ? \
        null : commitLink(c); if (url) window.open(url, "_blank"); });
              const legend = document.createElement("div"); legend.className = "legend";
              chart.lines.forEach((line, n) => {
                const item = document.createElement("span"); const swatch = document.createElement("i");
                swatch.style.background = colors[n % colors.length]; item.appendChild(swatch);
                item.appendChild(document.createTextNode(line.label)); legend.appendChild(item);
              });
              box.append(unit, canvas, legend); section.appendChild(box);  // in the page before it is drawn
              // The first charts are drawn at once, the rest as they scroll into view.
              if (!observer || drawnAtOnce < 6) { drawnAtOnce += 1; draw(canvas, chart); }
              else observer.observe(canvas);
            }
          }
          document.getElementById("summary").textContent =
            data.benchmarks.length + " benchmarks, " + data.commits.length + " commits, " + data.changes.length + " \
        change points";
        }
        document.getElementById("filter").addEventListener("input", (event) => {
          const wanted = event.target.value.trim().toLowerCase();
          for (const section of document.querySelectorAll(".benchmark")) {
            section.hidden = wanted !== "" && !section.dataset.name.includes(wanted);
          }
        });
        front(); benchmarks();
        """
}
