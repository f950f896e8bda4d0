/* wapii viewer: the report's tables, a filterable list of samples and each sample's whole story.
 * Data comes as scripts (data/*.js calling wapii.put) loaded on demand, so the page works from disk. */
(function () {
  "use strict";

  // ---------------------------------------------------------------- data loading (file://-safe)
  const store = Object.create(null);
  const waiting = Object.create(null);
  window.wapii = {
    put(key, value) {
      store[key] = value;
      const list = waiting[key];
      delete waiting[key];
      if (list) list.forEach((w) => w.resolve(value));
    },
  };

  function load(key, src) {
    if (key in store) return Promise.resolve(store[key]);
    return new Promise((resolve, reject) => {
      if (waiting[key]) { waiting[key].push({ resolve, reject }); return; }
      waiting[key] = [{ resolve, reject }];
      const script = document.createElement("script");
      script.src = src;
      script.onerror = () => {
        const list = waiting[key] || [];
        delete waiting[key];
        script.remove();
        list.forEach((w) => w.reject(new Error("cannot load " + src)));
      };
      script.onload = () => script.remove();
      document.head.appendChild(script);
    });
  }

  const libraries = {};
  function library(src) {
    // a vendored library the front page does not need (diff, highlighting), loaded with the first sample
    if (!libraries[src]) {
      libraries[src] = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = () => reject(new Error("cannot load " + src));
        document.head.appendChild(script);
      });
    }
    return libraries[src];
  }

  // ---------------------------------------------------------------- helpers
  const app = document.getElementById("app");
  const where = document.getElementById("where");
  const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ESC[c]);
  const badge = (v) => v ? `<span class="badge v-${esc(v)}">${esc(v)}</span>` : "";
  const el = (html) => { const t = document.createElement("template"); t.innerHTML = html.trim(); return t.content.firstChild; };

  function canonical(value) {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object") {
      const out = {};
      Object.keys(value).sort().forEach((k) => { out[k] = canonical(value[k]); });
      return out;
    }
    return value;
  }
  const pretty = (value) => value == null ? "" : JSON.stringify(canonical(value), null, 2);

  function judgedView(request) {
    // the captured request as the diff shows it: without what the judge keeps for itself and the
    // request's own fields already say (sent_params; sent_url where it is the url), as `wapii show` does
    if (!request || typeof request !== "object") return request;
    const out = Object.assign({}, request);
    delete out.sent_params;
    if (out.sent_url === out.url) delete out.sent_url;
    return out;
  }

  function highlight(code, language) {
    try { return hljs.highlight(code, { language, ignoreIllegals: true }).value; } catch (e) { return esc(code); }
  }

  function languageOf(run) {
    const adapter = (run.run && run.run.adapter) || "";
    return /_py$|py$/.test(adapter) ? "python" : "javascript";
  }

  // ---------------------------------------------------------------- state
  let meta = null;
  const index = [];          // per run: {t, d, v, e, u, m, p, f, r} integer columns
  const firstRow = [];       // per run: task index -> first row of that task (rows are in task, draw order)
  let context = null;        // what the API and search filters read (wapiiFilter.context)
  let apis = [];
  let taskShort = [];        // task index -> escaped short text for the list
  let filters = {};
  let matches = new Int32Array(0);
  let matchCount = 0;
  let list = null;           // the virtual list (HyperList): only the visible rows are in the page
  const ROW_HEIGHT = 29;
  const RUN_SHIFT = wapiiFilter.RUN_SHIFT;
  const KEEP_KEYS = ["sel", "sort"];  // kept when the filter bar changes: which runs are open, the list's order
  const parseQuery = wapiiFilter.parse;  // a list facet (error=a&error=b) is an array
  const queryOf = wapiiFilter.query;

  async function start() {
    meta = await load("meta", "data/meta.js");
    performance.mark("wapii:meta");
    await Promise.all(meta.runs.map((_, i) => load("index/" + i, `data/r${i}/index.js`).then((x) => { index[i] = x; })));
    performance.mark("wapii:index");
    context = wapiiFilter.context(meta);
    apis = context.apis;
    taskShort = meta.tasks.texts.map((t) => esc(t.length > 160 ? t.slice(0, 160) + "…" : t));
    index.forEach((ix, r) => {
      const first = new Int32Array(meta.tasks.ids.length).fill(-1);
      for (let i = ix.t.length - 1; i >= 0; i--) first[ix.t[i]] = i;
      firstRow[r] = first;
    });
    window.addEventListener("hashchange", route);
    route();
    if (meta.runs.some((r) => r.state === "running")) setInterval(poll, 4000); else sessionStorage.removeItem("wapii-live");
  }

  let polls = 0;
  function poll() {
    // a run still being written: a served viewer rewrites the data as it grows; reload when it did
    const script = document.createElement("script");
    script.src = `data/stamp.js?${++polls}`;
    script.onload = () => {
      script.remove();
      if (store.stamp === undefined || store.stamp === meta.stamp) return;
      sessionStorage.setItem("wapii-live", "1");  // a load that meets the data being replaced tries again
      location.reload();
    };
    script.onerror = () => script.remove();  // between two writes of the data: the next poll sees it
    document.head.appendChild(script);
  }

  function route() {
    const hash = location.hash.replace(/^#/, "");  // percent-decoded once, value by value, by parseQuery
    const sample = /^s\/(\d+)\/(\d+)(?:\?(.*))?$/.exec(hash);
    if (sample) return showSample(+sample[1], +sample[2], parseQuery(sample[3]));
    const tasks = /^tasks(?:\?(.*))?$/.exec(hash);
    if (tasks) return showTasks(parseQuery(tasks[1]));
    filters = parseQuery(hash.replace(/^\??/, ""));
    showFront();
    if (Object.keys(filters).some((k) => !KEEP_KEYS.includes(k))) document.getElementById("samples").scrollIntoView();
  }

  // ---------------------------------------------------------------- filtering
  function selected(f) {
    // the open runs: those of "sel" (the run list's choice), else every run
    const chosen = ((f || filters).sel || "").split(",").filter((x) => x !== "" && meta.runs[+x]).map(Number);
    return chosen.length ? Array.from(new Set(chosen)) : meta.runs.map((_, i) => i);
  }

  const SORTS = {  // the list's sort keys: a number or string per row (-1 / "" where not recorded: last)
    run: (r) => r, sample: (r, i) => index[r].t[i], draw: (r, i) => index[r].d[i], api: (r, i) => meta.tasks.apis[index[r].t[i]],
    verdict: (r, i) => meta.vocab.verdict[index[r].v[i]] || "", endpoint: (r, i) => meta.vocab.endpoint[index[r].r[i]] || "",
    latency: (r, i) => index[r].l ? index[r].l[i] : -1, tokens: (r, i) => index[r].k ? index[r].k[i] : -1,
    execution: (r, i) => index[r].x ? index[r].x[i] : -1,
  };

  function sortMatches() {
    const spec = filters.sort || "";
    const down = spec.startsWith("-");
    const key = SORTS[down ? spec.slice(1) : spec];
    if (!key) return;
    const rows = Array.from(matches.subarray(0, matchCount), (k) => {
      const r = Math.floor(k / RUN_SHIFT), i = k % RUN_SHIFT;
      return [k, key(r, i)];
    });
    const missing = (v) => v === -1 || v === "" || v == null;
    rows.sort((x, y) => {
      if (missing(x[1]) !== missing(y[1])) return missing(x[1]) ? 1 : -1;
      const c = x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
      return (down ? -c : c) || x[0] - y[0];
    });
    rows.forEach(([k], n) => { matches[n] = k; });
  }

  function applyFilters() {
    const f = filters;
    const runs = f.run != null && f.run !== "" ? [+f.run] : selected(f);
    matches = wapiiFilter.select(meta, index, runs, f, context);
    matchCount = matches.length;
    sortMatches();
  }

  function rowElement(key) {
    const r = Math.floor(key / RUN_SHIFT), i = key % RUN_SHIFT;
    const ix = index[r], t = ix.t[i];
    const verdict = meta.vocab.verdict[ix.v[i]];
    const error = meta.vocab.error[ix.e[i]];
    const end = meta.vocab.endpoint[ix.r[i]] || "";
    const latency = ix.l && ix.l[i] >= 0 ? (ix.l[i] / 1000).toFixed(2) + " s" : "";
    const tokens = ix.k && ix.k[i] >= 0 ? String(ix.k[i]) : "";
    const row = document.createElement("div");
    row.className = "srow";
    row.dataset.k = key;
    row.innerHTML = `<span class="c-run">${esc(meta.runs[r].name)}</span>` +
      `<span class="c-sample">${esc(meta.tasks.ids[t])}</span><span class="c-draw">${ix.d[i]}</span>` +
      `<span class="c-api">${esc(meta.tasks.apis[t])}</span><span class="c-verdict">${badge(verdict)}` +
      `${error ? " " + esc(error) : ""}</span><span class="c-end">${esc(end)}</span>` +
      `<span class="c-lat">${latency}</span><span class="c-tok">${tokens}</span>` +
      `<span class="c-task">${taskShort[t]}</span>`;
    return row;
  }

  // ---------------------------------------------------------------- front page
  function countTable() {
    // samples per run by verdict, error kind, URL/method/endpoint verdict and field verdict: each a link
    const rows = [];
    const open = selected();
    const counts = (column, size) => open.map((r) => index[r]).map((ix) => {
      const out = new Int32Array(size);
      const col = ix[column];
      for (let i = 0; i < col.length; i++) out[col[i]]++;
      return out;
    });
    const link = (k, n, f) => n ? `<a href="#${esc(queryOf({ ...f, run: String(open[k]), sel: filters.sel }))}" data-filter>${n}</a>` : "0";
    const add = (label, column, vocab, key, valueOf) => {
      const c = counts(column, meta.vocab[vocab].length);
      meta.vocab[vocab].forEach((value, k) => {
        if (!value || c.every((x) => !x[k])) return;
        rows.push(`<tr><td>${label(value)}</td>${c.map((x, r) => `<td>${link(r, x[k], { [key]: valueOf(value) })}</td>`).join("")}</tr>`);
      });
    };
    rows.push(`<tr><td>Samples</td>${open.map((r, k) => `<td>${link(k, index[r].t.length, {})}</td>`).join("")}</tr>`);
    add((v) => "Verdict " + badge(v), "v", "verdict", "verdict", (v) => v);
    add((v) => "Error: " + esc(v), "e", "error", "error", (v) => v);
    add((v) => "URL " + badge(v), "u", "part", "url", (v) => v);
    add((v) => "Method " + badge(v), "m", "part", "method", (v) => v);
    const fieldRows = meta.vocab.field.map((name, c) => {
      if (!name || c > 31) return "";
      const bit = 1 << (c - 1);
      const n = open.map((r) => index[r]).map((ix) => { let k = 0; for (let i = 0; i < ix.f.length; i++) if (ix.f[i] & bit) k++; return k; });
      const [g, v] = name.split(":");
      return `<tr><td>Arguments in ${esc(g)}: ${badge(v)}</td>${n.map((x, r) => `<td>${link(r, x, { field: name })}</td>`).join("")}</tr>`;
    });
    return rows.join("") + fieldRows.join("");
  }

  function runHeads() { return selected().map((r) => `<th title="${esc(meta.runs[r].label)}">${esc(meta.runs[r].name)}</th>`).join(""); }

  function reportTable() {
    const open = selected();
    return meta.rows.map((row) => {
      const cells = open.map((r) => [r, row.values[r]]).map(([r, value]) => row.filter && value !== "n/a" && value !== ""
        ? `<td><a href="#${esc(queryOf({ ...row.filter, run: String(r), sel: filters.sel }))}" data-filter>${esc(value)}</a></td>`
        : `<td>${esc(value)}</td>`).join("");
      const about = row.description ? ` title="${esc(row.description)}"` : "";
      return `<tr><td${about}>${esc(row.name)}</td>${cells}</tr>`;
    }).join("");
  }

  function select(name, label, options) {
    // one value of a facet; a list of several (a report row's link: error=no_request&error=timeout…), or
    // one the data does not hold, is shown as an option of its own that keeps it (data-keep)
    const current = wapiiFilter.list(filters[name]);
    const single = current.length === 1 && options.some(([v]) => v === current[0]);
    const kept = current.length && !single
      ? `<option value="" data-keep selected>${esc(current.join(" or "))}</option>` : "";
    const opts = [["", "all"]].concat(options).map(([v, l]) =>
      `<option value="${esc(v)}"${single && v === current[0] ? " selected" : ""}>${esc(l)}</option>`).join("");
    return `<label>${esc(label)}<select name="${name}">${kept}${opts}</select></label>`;
  }

  function filterBar() {
    const parts = meta.vocab.part.filter(Boolean).map((v) => [v, v]);
    const fieldOptions = [];
    const verdictsSeen = Array.from(new Set(meta.vocab.field.filter(Boolean).map((n) => n.split(":")[1])));
    verdictsSeen.forEach((v) => fieldOptions.push(["*:" + v, "any field: " + v]));
    meta.vocab.field.forEach((n) => { if (n) fieldOptions.push([n, n.replace(":", ": ")]); });
    return `<div class="filters" id="filters">` +
      select("run", "Run", selected().map((i) => [String(i), meta.runs[i].name])) +
      select("api", "API", apis.map((a) => [a, a])) +
      select("verdict", "Verdict", meta.vocab.verdict.filter(Boolean).map((v) => [v, v]).concat([["!nonexecutable", "executable"]])) +
      select("error", "Error kind", meta.vocab.error.filter(Boolean).map((v) => [v, v])) +
      select("field", "Field verdicts", fieldOptions) +
      select("arguments", "Arguments", (meta.arguments || []).map((b) => [b, "some " + b.replace("_", " ")])) +
      select("url", "URL", parts) + select("method", "Method", parts) +
      `<label>Search<input type="search" name="q" placeholder="task text, id, endpoint" value="${esc(filters.q || "")}"></label>` +
      `<span id="count"></span> <a href="#" id="clear">clear filters</a></div>`;
  }

  let frontBuilt = null;     // the "sel" the front page was built for (null: not built)

  // ---------------------------------------------------------------- the run list
  const RUN_COLUMNS = [  // [key, heading, value of meta.runs[i]]
    ["name", "run", (r) => r.name], ["model", "model", (r) => r.run.model || r.run.backend],
    ["dataset", "dataset", (r) => r.run.dataset], ["adapter", "adapter", (r) => r.run.adapter],
    ["setup", "setup", (r) => r.run.setup], ["setting", "setting", (r) => r.run.setting],
    ["mode", "mode", (r) => r.run.mode], ["date", "date", (r) => (r.run.created || "").replace("T", " ").slice(0, 16)],
    ["correct", "correct %", (r) => num(r.headline.correct)], ["executable", "executable %", (r) => num(r.headline.executable)],
    ["illegal", "illegal %", (r) => num(r.headline.illegal)], ["samples", "samples", (r) => r.samples],
    ["state", "state", (r) => r.state],
  ];
  const num = (v) => typeof v === "number" ? v : null;
  let runSort = { key: "", down: false };
  let runQuery = "";
  let runChecked = null;     // Set of run indices ticked in the run list

  function runListHtml() {
    return `<section id="run-list"><h2>Runs <span class="muted">(${meta.runs.length})</span></h2>` +
      `<div class="filters"><label>Find<input type="search" id="run-q" placeholder="model, dataset, adapter, state…" value="${esc(runQuery)}"></label>` +
      `<button type="button" id="open-runs">Open ticked side by side</button>` +
      `<button type="button" id="task-runs">Tasks across ticked</button><span id="run-count" class="muted"></span></div>` +
      `<div class="scroll-x"><table class="grid runs" id="runs"><thead><tr><th><input type="checkbox" id="run-all" title="tick every listed run"></th>` +
      RUN_COLUMNS.map(([key, head]) => `<th data-sort="${key}" class="sortable">${esc(head)}</th>`).join("") +
      `</tr></thead><tbody></tbody></table></div></section>`;
  }

  function refreshRuns() {
    const body = document.querySelector("#runs tbody");
    if (!body) return;
    const words = runQuery.toLowerCase().split(/\s+/).filter(Boolean);
    let rows = meta.runs.map((r, i) => i).filter((i) => {
      const text = RUN_COLUMNS.map(([, , f]) => String(f(meta.runs[i]) ?? "")).join(" ").toLowerCase();
      return words.every((w) => text.includes(w));
    });
    const column = RUN_COLUMNS.find(([key]) => key === runSort.key);
    if (column) {
      const value = column[2];
      rows.sort((a, b) => {
        const x = value(meta.runs[a]), y = value(meta.runs[b]);
        if ((x == null) !== (y == null)) return x == null ? 1 : -1;
        const c = x < y ? -1 : x > y ? 1 : 0;
        return (runSort.down ? -c : c) || a - b;
      });
    }
    body.innerHTML = rows.map((i) => {
      const r = meta.runs[i];
      const cells = RUN_COLUMNS.map(([key, , f]) => {
        const v = f(r);
        if (key === "name") return `<td><a href="#${esc(queryOf({ sel: String(i) }))}" title="${esc(r.directory)}">${esc(v)}</a></td>`;
        if (key === "state") return `<td><span class="state s-${esc(v)}" title="${esc(r.note)}">${esc(v)}</span></td>`;
        return `<td${typeof v === "number" ? ' class="num"' : ""}>${v == null ? "" : esc(typeof v === "number" && !Number.isInteger(v) ? v.toFixed(1) : v)}</td>`;
      }).join("");
      return `<tr data-run="${i}" data-name="${esc(r.name)}"><td><input type="checkbox" data-run="${i}"${runChecked.has(i) ? " checked" : ""} aria-label="tick ${esc(r.name)}"></td>${cells}</tr>`;
    }).join("");
    document.querySelectorAll("#runs th[data-sort]").forEach((th) => {
      th.dataset.dir = th.dataset.sort === runSort.key ? (runSort.down ? "down" : "up") : "";
    });
    document.getElementById("run-count").textContent = `${rows.length} listed, ${runChecked.size} ticked`;
    document.body.dataset.runsListed = String(rows.length);
  }

  function wireRuns() {
    const list = document.getElementById("run-list");
    if (!list) return;
    runChecked = new Set(filters.sel ? selected() : []);
    document.getElementById("run-q").addEventListener("input", (ev) => { runQuery = ev.target.value; refreshRuns(); });
    list.querySelector("thead").addEventListener("click", (ev) => {
      const th = ev.target.closest("th[data-sort]");
      if (!th) return;
      runSort = { key: th.dataset.sort, down: runSort.key === th.dataset.sort ? !runSort.down : false };
      refreshRuns();
    });
    list.addEventListener("change", (ev) => {
      const box = ev.target;
      if (box.id === "run-all") {
        document.querySelectorAll("#runs tbody input[data-run]").forEach((b) => {
          b.checked = box.checked;
          if (box.checked) runChecked.add(+b.dataset.run); else runChecked.delete(+b.dataset.run);
        });
      } else if (box.dataset.run != null) {
        if (box.checked) runChecked.add(+box.dataset.run); else runChecked.delete(+box.dataset.run);
      }
      refreshRuns();
    });
    const ticked = () => Array.from(runChecked).sort((a, b) => a - b).join(",");
    document.getElementById("open-runs").addEventListener("click", () => { location.hash = "#" + queryOf({ sel: ticked() }); });
    document.getElementById("task-runs").addEventListener("click", () => { location.hash = "#tasks?" + queryOf({ sel: ticked() }); });
    refreshRuns();
  }

  function partialNotes() {
    return selected().map((r) => meta.runs[r]).filter((r) => r.state === "running" || r.state === "interrupted")
      .map((r) => `<p class="partial"><b>${esc(r.name)}</b> is partial: ${esc(r.note)}. Its numbers count the judged samples only.</p>`).join("");
  }

  function showFront() {
    const open = selected();
    where.textContent = `${open.length} of ${meta.runs.length} run(s) open, ${open.reduce((n, r) => n + index[r].t.length, 0)} samples`;
    delete document.body.dataset.sample;
    delete document.body.dataset.tasks;
    const key = filters.sel || "";
    if (frontBuilt !== key || !document.getElementById("contentArea")) {
      const sortHead = (key, text) => `<span class="c-${key === "endpoint" ? "end" : key === "latency" ? "lat" : key === "tokens" ? "tok" : key} sortable" data-sort="${key}">${text}</span>`;
      const opened = filters.sel ? `<p class="muted">Open: ${open.map((r) => `<b>${esc(meta.runs[r].name)}</b>`).join(", ")}. <a href="#">all runs</a>` +
        (open.length > 1 ? ` · <a href="#tasks?${esc(queryOf({ sel: filters.sel }))}">tasks across these runs</a>` : "") + `</p>` : "";
      app.innerHTML = partialNotes() +
        (meta.runs.length > 1 ? runListHtml() : "") + opened +
        (meta.runs.length > 1 && !filters.sel && open.length > 1 ? `<p><a href="#tasks">Tasks across the runs</a>: one row per task, what changed between them.</p>` : "") +
        `<h2 id="samples">Samples</h2><div id="filter-slot"></div>` +
        `<div class="srow shead">${sortHead("run", "run")}${sortHead("sample", "sample")}${sortHead("draw", "draw")}${sortHead("api", "API")}` +
        `${sortHead("verdict", "verdict")}${sortHead("endpoint", "captured endpoint")}${sortHead("latency", "latency")}${sortHead("tokens", "tokens")}<span class="c-task">task</span></div>` +
        `<div id="contentArea" class="rows"></div><p class="muted" id="no-rows" hidden>No sample matches these filters.</p>` +
        `<details class="section" id="report-section"><summary><h2>Report</h2></summary>` +
        `<p class="muted">Values from each run's summary; a linked value lists the samples it counts.</p>` +
        `<div class="scroll-x"><table class="grid" id="report"><thead><tr><th>row</th>${runHeads()}</tr></thead><tbody>${reportTable()}</tbody></table></div>` +
        `<h2>Samples by verdict</h2><div class="scroll-x"><table class="grid" id="counts"><thead><tr><th>samples</th>${runHeads()}</tr></thead><tbody>${countTable()}</tbody></table></div></details>`;
      frontBuilt = key;
      list = null;
      document.getElementById("contentArea").addEventListener("click", (ev) => {
        const row = ev.target.closest(".srow");
        if (!row) return;
        const k = +row.dataset.k;
        location.hash = `s/${Math.floor(k / RUN_SHIFT)}/${k % RUN_SHIFT}?${queryOf(filters)}`;
      });
      document.querySelector(".shead").addEventListener("click", (ev) => {
        const head = ev.target.closest("[data-sort]");
        if (!head) return;
        const current = filters.sort || "";
        filters = { ...filters, sort: current === head.dataset.sort ? "-" + head.dataset.sort : head.dataset.sort };
        history.replaceState(null, "", "#" + queryOf(filters));
        refreshList();
      });
      wireRuns();
    }
    document.getElementById("filter-slot").innerHTML = filterBar();
    wireFilters();
    refreshList();
  }

  function wireFilters() {
    const bar = document.getElementById("filters");
    let timer = null;
    const update = () => {
      const next = {};
      KEEP_KEYS.forEach((k) => { if (filters[k]) next[k] = filters[k]; });
      bar.querySelectorAll("select, input").forEach((x) => {
        const keep = x.selectedOptions && x.selectedOptions[0] && x.selectedOptions[0].hasAttribute("data-keep");
        if (keep) next[x.name] = filters[x.name]; else if (x.value) next[x.name] = x.value;
      });
      filters = next;
      history.replaceState(null, "", "#" + queryOf(filters));
      refreshList();
    };
    bar.addEventListener("change", update);
    bar.querySelector("input[name=q]").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 120); });
    document.getElementById("clear").addEventListener("click", (ev) => {
      ev.preventDefault();
      filters = filters.sel ? { sel: filters.sel } : {};
      history.replaceState(null, "", "#" + queryOf(filters));
      showFront();
    });
  }

  function refreshList() {
    applyFilters();
    const area = document.getElementById("contentArea");
    const config = { itemHeight: ROW_HEIGHT, total: matchCount, generate: (i) => rowElement(matches[i]),
      height: Math.min(matchCount * ROW_HEIGHT, Math.round(window.innerHeight * 0.6)) + "px" };
    if (list) list.refresh(area, config); else list = HyperList.create(area, config);
    area.scrollTop = 0;
    document.getElementById("no-rows").hidden = matchCount > 0;
    document.getElementById("count").textContent = `${matchCount} sample(s)`;
    document.querySelectorAll(".shead [data-sort]").forEach((h) => {
      const spec = filters.sort || "";
      h.dataset.dir = spec === h.dataset.sort ? "up" : spec === "-" + h.dataset.sort ? "down" : "";
    });
    document.body.dataset.listed = String(matchCount);
    performance.mark("wapii:listed");
  }

  document.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-filter]");
    if (!a) return;
    ev.preventDefault();
    filters = parseQuery(a.getAttribute("href").slice(1));
    history.pushState(null, "", a.getAttribute("href"));
    if (frontBuilt !== (filters.sel || "")) { showFront(); } else {
      document.getElementById("filter-slot").innerHTML = filterBar();
      wireFilters();
      refreshList();
    }
    document.getElementById("samples").scrollIntoView();
  });

  // ---------------------------------------------------------------- tasks across runs
  function taskCell(k, t) {
    // [verdict of draw 0 or null when the task is not in run k, correct draws, draws]
    const first = firstRow[k][t];
    if (first < 0) return [null, 0, 0];
    const ix = index[k];
    let correct = 0, n = 0;
    for (let i = first; i < ix.t.length && ix.t[i] === t; i++) { n++; if (meta.vocab.verdict[ix.v[i]] === "correct") correct++; }
    return [meta.vocab.verdict[ix.v[first]], correct, n];
  }

  function showTasks(query) {
    filters = query;
    frontBuilt = null;
    delete document.body.dataset.sample;
    const open = selected();
    const a = open.includes(+query.a) ? +query.a : open[0];
    const b = open.includes(+query.b) ? +query.b : open[Math.min(1, open.length - 1)];
    const show = ["changed", "ab"].includes(query.show) ? query.show : "all";
    const rows = [];
    meta.tasks.ids.forEach((id, t) => {
      const cells = open.map((k) => taskCell(k, t));
      if (cells.every((c) => c[0] == null)) return;
      const present = cells.filter((c) => c[0] != null).map((c) => c[0]);
      if (show === "changed" && (present.length < 2 || present.every((v) => v === present[0]))) return;
      if (show === "ab") {
        const va = cells[open.indexOf(a)][0], vb = cells[open.indexOf(b)][0];
        if (va !== "correct" || vb == null || vb === "correct") return;
      }
      const home = open.find((k) => firstRow[k][t] >= 0);  // the first open run that holds the task
      rows.push(`<tr data-task="${esc(id)}"><td><a href="#s/${home}/${firstRow[home][t]}?${esc(queryOf({ sel: query.sel }))}">${esc(id)}</a></td>` +
        cells.map(([v, c, n], j) => v == null ? `<td class="muted">—</td>`
          : `<td><a href="#s/${open[j]}/${firstRow[open[j]][t]}?${esc(queryOf({ sel: query.sel }))}">${badge(v)}</a>${n > 1 ? ` <span class="muted">${c}/${n}</span>` : ""}</td>`).join("") +
        `<td class="task-text">${taskShort[t]}</td></tr>`);
    });
    const runOptions = (name, current) => `<select name="${name}">${open.map((k) => `<option value="${k}"${k === current ? " selected" : ""}>${esc(meta.runs[k].name)}</option>`).join("")}</select>`;
    where.textContent = `tasks across ${open.length} run(s)`;
    app.innerHTML = `<div class="nav"><a href="#${esc(queryOf({ sel: query.sel }))}">← samples</a></div>` +
      `<h2>Tasks across runs</h2><p class="muted">One row per task, one column per run: the verdict of draw 0 (and correct draws of all, with several). ` +
      `"Changed" compares the runs that hold the task.</p>` +
      `<div class="filters" id="task-filters"><label>Show<select name="show">` +
      [["all", "every task"], ["changed", "changed between runs"], ["ab", "correct in A, not in B"]].map(([v, l]) =>
        `<option value="${v}"${v === show ? " selected" : ""}>${l}</option>`).join("") + `</select></label>` +
      `<label>A${runOptions("a", a)}</label><label>B${runOptions("b", b)}</label><span id="task-count">${rows.length} task(s)</span></div>` +
      `<div class="scroll-x"><table class="grid tasks" id="tasks"><thead><tr><th>task</th>${open.map((k) => `<th title="${esc(meta.runs[k].label)}">${esc(meta.runs[k].name)}</th>`).join("")}<th>text</th></tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table></div>` + (rows.length ? "" : `<p class="muted" id="no-tasks">No task matches.</p>`);
    document.getElementById("task-filters").addEventListener("change", () => {
      const next = { sel: query.sel };
      document.querySelectorAll("#task-filters select").forEach((x) => { next[x.name] = x.value; });
      if (next.show === "all") delete next.show;
      location.hash = "#tasks?" + queryOf(next);
    });
    window.scrollTo(0, 0);
    document.body.dataset.tasks = String(rows.length);
  }

  // ---------------------------------------------------------------- one sample
  function loadRecord(r, row) {
    const chunk = Math.floor(row / meta.chunk);
    return load(`chunk/${r}/${chunk}`, `data/r${r}/c${chunk}.js`).then((records) => records[row % meta.chunk]);
  }

  function loadExcerpt(api, endpoint) {
    const n = endpoint ? meta.excerpts[api + " " + endpoint] : undefined;
    return n == null ? Promise.resolve(null) : load("excerpt/" + n, `data/x/${n}.js`);
  }

  function programHtml(record, language) {
    const code = record.code || "";
    if (!code) return `<p class="muted">No program (${esc(record.generation_error || "none stored")}).</p>`;
    let span = Array.isArray(record.call_span) ? record.call_span.slice() : null;
    const call = (record.call || "").trim();
    if (call) {
      // the whole call where the program holds it as judged (a span may stop short of its closing "});")
      const at = span && code.startsWith(call, span[0]) ? span[0] : span ? -1 : code.indexOf(call);
      if (at >= 0) span = [at, at + call.length];
    }
    if (!span) return `<pre><code class="hljs">${highlight(code, language)}</code></pre>`;
    const [a, b] = span;
    return `<pre><code class="hljs">${highlight(code.slice(0, a), language)}<mark class="call" title="the judged call">` +
      `${highlight(code.slice(a, b), language)}</mark>${highlight(code.slice(b), language)}</code></pre>`;
  }

  function promptHtml(prompt) {
    if (prompt == null) return `<p class="muted">This run did not store the prompt.</p>`;
    const size = typeof prompt === "string" ? prompt.length : prompt.reduce((n, m) => n + String(m.content || "").length, 0);
    const body = typeof prompt === "string" ? `<pre>${esc(prompt)}</pre>`
      : prompt.map((m) => `<div class="msg-role">${esc(m.role)}</div><pre>${esc(typeof m.content === "string" ? m.content : JSON.stringify(m.content, null, 2))}</pre>`).join("");
    return `<details><summary>Prompt (${size} characters)</summary>${body}</details>`;
  }

  function diffHtml(record) {
    // expected vs captured as the judge compared them (a wire-mode record carries both views)
    const expected = record.expected_request, captured = record.request;
    if (record.verdict === "pending") return `<p class="muted">Not judged yet (the run is still being written).</p>`;
    if (captured == null) return `<p class="muted">No request was captured (the call did not run).</p>`;
    if (expected == null) return `<p class="muted">The expected request is not available.</p>`;
    const [shownExpected, shownCaptured] = record.diff_views || [judgedView(expected), judgedView(captured)];
    const parts = Diff.diffLines(pretty(shownExpected) + "\n", pretty(shownCaptured) + "\n");
    const lines = [];
    parts.forEach((p) => {
      const cls = p.added ? "add" : p.removed ? "del" : "same";
      const mark = p.added ? "+ " : p.removed ? "- " : "  ";
      p.value.replace(/\n$/, "").split("\n").forEach((line) => lines.push(`<span class="${cls}">${mark}${esc(line)}</span>`));
    });
    return `<pre class="diff">${lines.join("")}</pre>`;
  }

  function verdictRows(record) {
    const reasons = record.reasons || {};
    const used = new Set();
    const rows = [];
    const row = (name, verdict) => {
      const reason = reasons[name];
      if (reason != null) used.add(name);
      rows.push(`<tr><td>${esc(name)}</td><td>${badge(verdict)}</td><td>${esc(reason || "")}</td></tr>`);
    };
    ["url", "method", "endpoint"].forEach((k) => { if (record[k]) row(k, record[k]); });
    Object.entries(record.arguments || {}).forEach(([group, fields]) =>
      Object.entries(fields || {}).forEach(([name, verdict]) => row(`${group}.${name}`, verdict)));
    Object.entries(reasons).forEach(([name, reason]) => {
      if (!used.has(name)) rows.push(`<tr><td>${esc(name)}</td><td></td><td>${esc(reason)}</td></tr>`);
    });
    return rows.length ? `<table class="verdicts" id="verdicts"><thead><tr><th>field</th><th>verdict</th><th>reason</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
      : `<p class="muted">No field verdicts (the sample did not run).</p>`;
  }

  function exchangesHtml(record) {
    // every request the program sent and its responder's answer, in order (only where a responder answered)
    if (!Array.isArray(record.exchanges)) return "";
    const body = (m) => m.body != null ? esc(m.body) : m.body_base64 != null ? `<span class="muted">(${esc(m.size)} bytes, not UTF-8)</span>` : '<span class="muted">(no body)</span>';
    const rows = record.exchanges.map((x, i) => `<tr><td>${i + 1}</td><td>${esc(x.method)} ${esc(x.url)}<pre>${body(x.request)}</pre></td>` +
      `<td>${esc(x.status)}${x.note ? ` <span class="muted">${esc(x.note)}</span>` : ""}<pre>${body(x.response)}</pre></td></tr>`);
    return `<h3>Exchanges (${record.exchanges.length})</h3><table class="verdicts" id="exchanges"><thead><tr><th>#</th><th>request</th><th>answer</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  function workflowHtml(record) {
    // a workflow task's steps (each request paired with an expected call, or extra, or missing) and end state
    const w = record.workflow;
    if (!w || typeof w !== "object") return "";
    const steps = Array.isArray(w.steps) ? w.steps : [];
    const rows = steps.map((s) => {
      const sent = Number.isInteger(s.sent) ? `request ${s.sent + 1}` : "not sent";
      const expected = Number.isInteger(s.expected) ? `call ${s.expected}` : "extra";
      const why = Object.entries(s.reasons || {}).slice(0, 3).map(([k, v]) => `${k}: ${v}`).join("; ");
      return `<tr><td>${esc(sent)}</td><td>${esc(expected)}</td><td>${badge(s.verdict || "missing")}</td>` +
        `<td>${esc(s.endpoint || "no endpoint of the spec")}${why ? ` <span class="muted">${esc(why)}</span>` : ""}</td></tr>`;
    });
    const items = (list, label) => (Array.isArray(list) ? list : []).map((x) => `<li><b>${label}</b> ${esc(x)}</li>`).join("");
    const changes = items(w.missing, "missing") + items(w.damage, "damage");
    const failed = Array.isArray(w.failed) && w.failed.length ? `<p>Not correct because: ${esc(w.failed.join(", "))}</p>` : "";
    return `<h3>Steps <span class="muted">(${esc(w.correct_steps)} of ${esc(w.expected_steps)} expected calls sent and correct; ` +
      `${esc(w.extra)} extra, ${esc(w.illegal)} illegal)</span></h3>` +
      `<table class="verdicts" id="steps"><thead><tr><th>sent</th><th>expected</th><th>verdict</th><th>endpoint</th></tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table>` +
      `<h3>End state</h3><div id="end-state">${changes ? `<ul>${changes}</ul>` : '<p class="muted">Every change the task asks for, and nothing else.</p>'}${failed}</div>`;
  }

  function timingsHtml(record) {
    const t = Object.assign({}, record.generation_timings || {}, record.timings || {});
    const items = Object.entries(t).filter(([, v]) => v != null);
    if (!items.length) return "";
    return `<dl class="kv" id="timings">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : v)}</dd>`).join("")}</dl>`;
  }

  function neighbours(r, row, query) {
    // previous / next sample of the list the sample was opened from
    filters = query;
    applyFilters();
    const key = r * RUN_SHIFT + row;
    let at = -1;
    for (let i = 0; i < matchCount; i++) if (matches[i] === key) { at = i; break; }
    const link = (i, text) => i >= 0 && i < matchCount
      ? `<a href="#s/${Math.floor(matches[i] / RUN_SHIFT)}/${matches[i] % RUN_SHIFT}?${esc(queryOf(query))}">${text}</a>` : "";
    return `<div class="nav"><a href="#${esc(queryOf(query))}">← list (${matchCount})</a>${link(at - 1, "‹ previous")}` +
      `${at >= 0 ? `<span class="muted">${at + 1} of ${matchCount}</span>` : ""}${link(at + 1, "next ›")}</div>`;
  }

  async function showSample(r, row, query) {
    frontBuilt = null;
    delete document.body.dataset.tasks;
    if (!meta.runs[r] || !index[r] || row >= index[r].t.length) {
      app.innerHTML = `<p class="error">No such sample.</p><p><a href="#">back</a></p>`;
      return;
    }
    const run = meta.runs[r];
    const [record] = await Promise.all([loadRecord(r, row), library("assets/vendor/diff.min.js"),
      library("assets/vendor/highlight.min.js")]);
    const language = languageOf(run);
    const [expectedExcerpt, chosenExcerpt] = await Promise.all([
      loadExcerpt(record.api, record.expected_endpoint), loadExcerpt(record.api, record.resolved_endpoint)]);
    where.textContent = `${record.sample} · draw ${record.draw} · ${run.name}`;
    const expectedNote = record.expected_from === "dataset" ? " <span class=\"muted\">(from the dataset: this run did not store it)</span>" : "";
    app.innerHTML = neighbours(r, row, query) +
      `<h2>${esc(record.sample)} <span class="muted">draw ${record.draw}</span> ${badge(record.verdict)}` +
      `${record.error ? ` <span class="error">${esc(record.error)}</span>` : ""}</h2>` +
      `<dl class="kv"><dt>run</dt><dd>${esc(run.name)} <span class="muted">${esc(run.label)}</span></dd>` +
      `<dt>API</dt><dd>${esc(record.api)}</dd>` +
      (record.error_detail ? `<dt>error</dt><dd>${esc(record.error_detail)}</dd>` : "") +
      (record.finish_reason ? `<dt>finish</dt><dd>${esc(record.finish_reason)}</dd>` : "") + `</dl>` +
      `<h3>Task</h3><p id="task">${esc(record.task || "(task text not available)")}</p>` +
      `<h3>Prompt</h3>${promptHtml(record.prompt)}` +
      `<h3>Program <span class="muted">(the judged call marked)</span></h3><div id="program">${programHtml(record, language)}</div>` +
      (record.raw && record.raw !== record.code ? `<details><summary>Raw model output</summary><pre>${esc(record.raw)}</pre></details>` : "") +
      `<h3>Expected (−) vs captured (+) request${expectedNote}</h3><div id="diff">${diffHtml(record)}</div>` +
      `<div class="two"><div><h3>Expected request</h3><pre id="expected">${esc(pretty(record.expected_request) || "(not available)")}</pre></div>` +
      `<div><h3>Captured request</h3><pre id="captured">${esc(pretty(record.request) || "(no request captured)")}</pre></div></div>` +
      `<h3>Verdicts and reasons</h3>${verdictRows(record)}` + workflowHtml(record) + exchangesHtml(record) +
      `<h3>Timings</h3>${timingsHtml(record) || '<p class="muted">Not recorded.</p>'}` +
      `<div class="two"><div><h3>Expected endpoint: ${esc(record.expected_endpoint || "unknown")}</h3>` +
      `${expectedExcerpt ? `<pre class="excerpt"><code class="hljs">${highlight(expectedExcerpt, "json")}</code></pre>` : '<p class="muted">No spec excerpt.</p>'}</div>` +
      `<div><h3>Chosen endpoint: ${esc(record.resolved_endpoint || "none")}</h3>` +
      `${record.resolved_endpoint && record.resolved_endpoint === record.expected_endpoint ? '<p class="muted">The expected endpoint.</p>'
        : chosenExcerpt ? `<pre class="excerpt"><code class="hljs">${highlight(chosenExcerpt, "json")}</code></pre>` : '<p class="muted">No spec excerpt.</p>'}</div></div>` +
      "";
    const many = selected(query).length > 1;
    if (many) {  // the side by side first: what one asks of several runs is what changed between them
      app.querySelector("h2").insertAdjacentHTML("afterend",
        `<section id="across-section"><h3>The same task in every open run</h3><div class="across" id="across">Loading…</div></section>`);
    }
    window.scrollTo(0, 0);
    if (many) await showAcross(r, row, record, query);
    document.body.dataset.sample = `${r}/${row}`;
  }

  function rowOf(k, task, draw) {
    // run k's row of the task at the draw (its last draw when it has fewer), -1 when the run lacks the task
    const ix = index[k];
    let at = firstRow[k][task];
    if (at < 0) return -1;
    while (at + 1 < ix.t.length && ix.t[at + 1] === task && ix.d[at] < draw) at++;
    return at;
  }

  async function showAcross(r, row, record, query) {
    const task = index[r].t[row];
    const records = {};
    const cards = await Promise.all(selected(query).map(async (k) => {
      const run = meta.runs[k];
      const other = rowOf(k, task, record.draw);
      if (other < 0) return `<div class="card"><b>${esc(run.name)}</b><p class="muted">Not in this run.</p></div>`;
      const rec = records[k] = k === r ? record : await loadRecord(k, other);
      const reasons = Object.entries(rec.reasons || {}).map(([f, why]) =>
        `<li>${String(why).startsWith(f) ? esc(why) : `<b>${esc(f)}</b>: ${esc(why)}`}</li>`).join("");
      return `<div class="card${k === r ? " here" : ""}"><div><a href="#s/${k}/${other}?${esc(queryOf(query))}"><b>${esc(run.name)}</b></a> ` +
        `${badge(rec.verdict)} ${rec.error ? esc(rec.error) : ""} <span class="muted">draw ${rec.draw}</span></div>` +
        `<div class="muted">${esc(run.label)}</div>` +
        (rec.call ? `<pre><code class="hljs">${highlight(rec.call, languageOf(run))}</code></pre>` : "") +
        diffHtml(rec) + (reasons ? `<ul>${reasons}</ul>` : "") +
        // each run's program: unfolded where nothing was captured, else drawn when unfolded (30 runs side by side)
        (rec.request == null ? `<details class="program" open><summary>Program</summary>${programHtml(rec, languageOf(run))}</details>`
          : `<details class="program" data-run="${k}"><summary>Program</summary></details>`) + `</div>`;
    }));
    const slot = document.getElementById("across");
    if (!slot) return;
    slot.innerHTML = cards.join("");
    slot.addEventListener("toggle", (ev) => {
      const box = ev.target;
      if (!box.open || box.dataset.run == null || box.dataset.drawn) return;
      box.dataset.drawn = "1";
      box.insertAdjacentHTML("beforeend", programHtml(records[box.dataset.run], languageOf(meta.runs[box.dataset.run])));
    }, true);
  }

  start().catch((err) => {
    if (sessionStorage.getItem("wapii-live")) { setTimeout(() => location.reload(), 1000); return; }
    app.innerHTML = `<p class="error">The viewer could not load its data: ${esc(err.message)}</p>`;
    console.error(err);
  });
})();
