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
  let taskApi = null;        // task index -> API code
  let apis = [];
  let taskText = [];         // task index -> lower-case "id text" for search
  let taskShort = [];        // task index -> escaped short text for the list
  let filters = {};
  let matches = new Int32Array(0);
  let matchCount = 0;
  let list = null;           // the virtual list (HyperList): only the visible rows are in the page
  const ROW_HEIGHT = 29;
  const RUN_SHIFT = 1 << 22; // a row key: run * RUN_SHIFT + row

  const FILTER_KEYS = ["run", "api", "verdict", "error", "field", "url", "method", "q"];

  function parseQuery(text) {
    const out = {};
    new URLSearchParams(text || "").forEach((v, k) => { if (FILTER_KEYS.includes(k) && v !== "") out[k] = v; });
    return out;
  }
  const queryOf = (f) => new URLSearchParams(Object.entries(f).filter(([, v]) => v !== "" && v != null)).toString();

  async function start() {
    meta = await load("meta", "data/meta.js");
    performance.mark("wapii:meta");
    await Promise.all(meta.runs.map((_, i) => load("index/" + i, `data/r${i}/index.js`).then((x) => { index[i] = x; })));
    performance.mark("wapii:index");
    apis = Array.from(new Set(meta.tasks.apis));
    taskApi = Int32Array.from(meta.tasks.apis, (a) => apis.indexOf(a));
    taskText = meta.tasks.ids.map((id, i) => (id + " " + meta.tasks.texts[i]).toLowerCase());
    taskShort = meta.tasks.texts.map((t) => esc(t.length > 160 ? t.slice(0, 160) + "…" : t));
    index.forEach((ix, r) => {
      const first = new Int32Array(meta.tasks.ids.length).fill(-1);
      for (let i = ix.t.length - 1; i >= 0; i--) first[ix.t[i]] = i;
      firstRow[r] = first;
    });
    window.addEventListener("hashchange", route);
    route();
  }

  function route() {
    const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    const sample = /^s\/(\d+)\/(\d+)(?:\?(.*))?$/.exec(hash);
    if (sample) return showSample(+sample[1], +sample[2], parseQuery(sample[3]));
    filters = parseQuery(hash.replace(/^\??/, ""));
    showFront();
  }

  // ---------------------------------------------------------------- filtering
  function code(vocab, value) { const i = meta.vocab[vocab].indexOf(value); return i < 0 ? -2 : i; }

  function fieldMask(value) {
    if (!value) return 0;
    const [group, verdict] = value.split(":");
    let mask = 0;
    meta.vocab.field.forEach((name, c) => {
      if (!name || c > 31) return;
      const [g, v] = name.split(":");
      if ((group === "*" || g === group) && v === verdict) mask |= 1 << (c - 1);
    });
    return mask;
  }

  function applyFilters() {
    const f = filters;
    const runs = f.run != null && f.run !== "" ? [+f.run] : meta.runs.map((_, i) => i);
    let total = 0;
    runs.forEach((r) => { if (index[r]) total += index[r].t.length; });
    if (matches.length < total) matches = new Int32Array(total);
    const negate = f.verdict && f.verdict[0] === "!";
    const verdict = f.verdict ? code("verdict", negate ? f.verdict.slice(1) : f.verdict) : -1;
    const error = f.error ? code("error", f.error) : -1;
    const url = f.url ? code("part", f.url) : -1;
    const method = f.method ? code("part", f.method) : -1;
    const api = f.api ? apis.indexOf(f.api) : -1;
    const mask = fieldMask(f.field);
    const fieldWanted = !!f.field;
    let taskOk = null, endOk = null;
    if (f.q) {
      const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
      taskOk = Uint8Array.from(taskText, (t) => words.every((w) => t.includes(w)) ? 1 : 0);
      endOk = Uint8Array.from(meta.vocab.endpoint, (e) => e && words.every((w) => e.toLowerCase().includes(w)) ? 1 : 0);
    }
    let n = 0;
    for (const r of runs) {
      const ix = index[r];
      if (!ix) continue;
      const { t, v, e, u, m, f: fm, r: ends } = ix;
      for (let i = 0; i < t.length; i++) {
        if (verdict !== -1 && (negate ? v[i] === verdict : v[i] !== verdict)) continue;
        if (error !== -1 && e[i] !== error) continue;
        if (url !== -1 && u[i] !== url) continue;
        if (method !== -1 && m[i] !== method) continue;
        if (api !== -1 && taskApi[t[i]] !== api) continue;
        if (fieldWanted && (fm[i] & mask) === 0) continue;
        if (taskOk && !taskOk[t[i]] && !endOk[ends[i]]) continue;
        matches[n++] = r * RUN_SHIFT + i;
      }
    }
    matchCount = n;
  }

  function rowElement(key) {
    const r = Math.floor(key / RUN_SHIFT), i = key % RUN_SHIFT;
    const ix = index[r], t = ix.t[i];
    const verdict = meta.vocab.verdict[ix.v[i]];
    const error = meta.vocab.error[ix.e[i]];
    const end = meta.vocab.endpoint[ix.r[i]] || "";
    const row = document.createElement("div");
    row.className = "srow";
    row.dataset.k = key;
    row.innerHTML = `<span class="c-run">${esc(meta.runs[r].name)}</span>` +
      `<span class="c-sample">${esc(meta.tasks.ids[t])}</span><span class="c-draw">${ix.d[i]}</span>` +
      `<span class="c-api">${esc(meta.tasks.apis[t])}</span><span class="c-verdict">${badge(verdict)}` +
      `${error ? " " + esc(error) : ""}</span><span class="c-end">${esc(end)}</span>` +
      `<span class="c-task">${taskShort[t]}</span>`;
    return row;
  }

  // ---------------------------------------------------------------- front page
  function countTable() {
    // samples per run by verdict, error kind, URL/method/endpoint verdict and field verdict: each a link
    const rows = [];
    const counts = (column, size) => index.map((ix) => {
      const out = new Int32Array(size);
      const col = ix[column];
      for (let i = 0; i < col.length; i++) out[col[i]]++;
      return out;
    });
    const link = (r, n, f) => n ? `<a href="#${esc(queryOf({ ...f, run: String(r) }))}" data-filter>${n}</a>` : "0";
    const add = (label, column, vocab, key, valueOf) => {
      const c = counts(column, meta.vocab[vocab].length);
      meta.vocab[vocab].forEach((value, k) => {
        if (!value || c.every((x) => !x[k])) return;
        rows.push(`<tr><td>${label(value)}</td>${c.map((x, r) => `<td>${link(r, x[k], { [key]: valueOf(value) })}</td>`).join("")}</tr>`);
      });
    };
    rows.push(`<tr><td>Samples</td>${index.map((ix, r) => `<td>${link(r, ix.t.length, {})}</td>`).join("")}</tr>`);
    add((v) => "Verdict " + badge(v), "v", "verdict", "verdict", (v) => v);
    add((v) => "Error: " + esc(v), "e", "error", "error", (v) => v);
    add((v) => "URL " + badge(v), "u", "part", "url", (v) => v);
    add((v) => "Method " + badge(v), "m", "part", "method", (v) => v);
    const fieldRows = meta.vocab.field.map((name, c) => {
      if (!name || c > 31) return "";
      const bit = 1 << (c - 1);
      const n = index.map((ix) => { let k = 0; for (let i = 0; i < ix.f.length; i++) if (ix.f[i] & bit) k++; return k; });
      const [g, v] = name.split(":");
      return `<tr><td>Arguments in ${esc(g)}: ${badge(v)}</td>${n.map((x, r) => `<td>${link(r, x, { field: name })}</td>`).join("")}</tr>`;
    });
    return rows.join("") + fieldRows.join("");
  }

  function runHeads() { return meta.runs.map((r) => `<th title="${esc(r.label)}">${esc(r.name)}</th>`).join(""); }

  function reportTable() {
    return meta.rows.map((row) => {
      const cells = row.values.map((value, r) => row.filter && value !== "n/a" && value !== ""
        ? `<td><a href="#${esc(queryOf({ ...row.filter, run: String(r) }))}" data-filter>${esc(value)}</a></td>`
        : `<td>${esc(value)}</td>`).join("");
      return `<tr><td>${esc(row.name)}</td>${cells}</tr>`;
    }).join("");
  }

  function select(name, label, options) {
    const current = filters[name] || "";
    const opts = [["", "all"]].concat(options).map(([v, l]) =>
      `<option value="${esc(v)}"${v === current ? " selected" : ""}>${esc(l)}</option>`).join("");
    return `<label>${esc(label)}<select name="${name}">${opts}</select></label>`;
  }

  function filterBar() {
    const parts = meta.vocab.part.filter(Boolean).map((v) => [v, v]);
    const fieldOptions = [];
    const verdictsSeen = Array.from(new Set(meta.vocab.field.filter(Boolean).map((n) => n.split(":")[1])));
    verdictsSeen.forEach((v) => fieldOptions.push(["*:" + v, "any field: " + v]));
    meta.vocab.field.forEach((n) => { if (n) fieldOptions.push([n, n.replace(":", ": ")]); });
    return `<div class="filters" id="filters">` +
      select("run", "Run", meta.runs.map((r, i) => [String(i), r.name])) +
      select("api", "API", apis.map((a) => [a, a])) +
      select("verdict", "Verdict", meta.vocab.verdict.filter(Boolean).map((v) => [v, v]).concat([["!nonexecutable", "executable"]])) +
      select("error", "Error kind", meta.vocab.error.filter(Boolean).map((v) => [v, v])) +
      select("field", "Field verdicts", fieldOptions) +
      select("url", "URL", parts) + select("method", "Method", parts) +
      `<label>Search<input type="search" name="q" placeholder="task text, id, endpoint" value="${esc(filters.q || "")}"></label>` +
      `<span id="count"></span> <a href="#" id="clear">clear filters</a></div>`;
  }

  let frontBuilt = false;

  function showFront() {
    where.textContent = `${meta.runs.length} run(s), ${index.reduce((n, ix) => n + ix.t.length, 0)} samples`;
    delete document.body.dataset.sample;
    if (!frontBuilt) {
      app.innerHTML =
        `<h2>Runs</h2><div class="scroll-x"><table class="grid"><thead><tr><th>run</th><th>model · setup · setting · adapter · mode</th><th>samples</th></tr></thead><tbody>` +
        meta.runs.map((r) => `<tr><td>${esc(r.name)}</td><td style="text-align:left">${esc(r.label)}</td><td>${r.samples}</td></tr>`).join("") +
        `</tbody></table></div>` +
        `<details class="section"${window.innerWidth > 700 ? " open" : ""}><summary><h2>Report</h2></summary>` +
        `<p class="muted">Values from each run's summary; a linked value lists the samples it counts.</p>` +
        `<div class="scroll-x"><table class="grid" id="report"><thead><tr><th>row</th>${runHeads()}</tr></thead><tbody>${reportTable()}</tbody></table></div></details>` +
        `<h2>Samples by verdict</h2><div class="scroll-x"><table class="grid" id="counts"><thead><tr><th>samples</th>${runHeads()}</tr></thead><tbody>${countTable()}</tbody></table></div>` +
        `<h2 id="samples">Samples</h2><div id="filter-slot"></div>` +
        `<div class="srow shead"><span class="c-run">run</span><span class="c-sample">sample</span><span class="c-draw">draw</span><span class="c-api">API</span><span class="c-verdict">verdict</span><span class="c-end">captured endpoint</span><span class="c-task">task</span></div>` +
        `<div id="contentArea" class="rows"></div><p class="muted" id="no-rows" hidden>No sample matches these filters.</p>`;
      frontBuilt = true;
      list = null;
      document.getElementById("contentArea").addEventListener("click", (ev) => {
        const row = ev.target.closest(".srow");
        if (!row) return;
        const key = +row.dataset.k;
        location.hash = `s/${Math.floor(key / RUN_SHIFT)}/${key % RUN_SHIFT}?${queryOf(filters)}`;
      });
    } else if (!document.getElementById("contentArea")) {
      frontBuilt = false;
      return showFront();
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
      bar.querySelectorAll("select, input").forEach((x) => { if (x.value) next[x.name] = x.value; });
      filters = next;
      history.replaceState(null, "", "#" + queryOf(filters));
      refreshList();
    };
    bar.addEventListener("change", update);
    bar.querySelector("input[name=q]").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 120); });
    document.getElementById("clear").addEventListener("click", (ev) => {
      ev.preventDefault();
      filters = {};
      history.replaceState(null, "", "#");
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
    document.body.dataset.listed = String(matchCount);
    performance.mark("wapii:listed");
  }

  document.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-filter]");
    if (!a) return;
    ev.preventDefault();
    filters = parseQuery(a.getAttribute("href").slice(1));
    history.pushState(null, "", a.getAttribute("href"));
    document.getElementById("filter-slot").innerHTML = filterBar();
    wireFilters();
    refreshList();
    document.getElementById("samples").scrollIntoView();
  });

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

  function diffHtml(expected, captured) {
    if (captured == null) return `<p class="muted">No request was captured (the call did not run).</p>`;
    if (expected == null) return `<p class="muted">The expected request is not available.</p>`;
    const parts = Diff.diffLines(pretty(expected) + "\n", pretty(captured) + "\n");
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
    frontBuilt = false;
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
      `<h3>Expected (−) vs captured (+) request${expectedNote}</h3><div id="diff">${diffHtml(record.expected_request, record.request)}</div>` +
      `<div class="two"><div><h3>Expected request</h3><pre id="expected">${esc(pretty(record.expected_request) || "(not available)")}</pre></div>` +
      `<div><h3>Captured request</h3><pre id="captured">${esc(pretty(record.request) || "(no request captured)")}</pre></div></div>` +
      `<h3>Verdicts and reasons</h3>${verdictRows(record)}` + exchangesHtml(record) +
      `<h3>Timings</h3>${timingsHtml(record) || '<p class="muted">Not recorded.</p>'}` +
      `<div class="two"><div><h3>Expected endpoint: ${esc(record.expected_endpoint || "unknown")}</h3>` +
      `${expectedExcerpt ? `<pre class="excerpt"><code class="hljs">${highlight(expectedExcerpt, "json")}</code></pre>` : '<p class="muted">No spec excerpt.</p>'}</div>` +
      `<div><h3>Chosen endpoint: ${esc(record.resolved_endpoint || "none")}</h3>` +
      `${record.resolved_endpoint && record.resolved_endpoint === record.expected_endpoint ? '<p class="muted">The expected endpoint.</p>'
        : chosenExcerpt ? `<pre class="excerpt"><code class="hljs">${highlight(chosenExcerpt, "json")}</code></pre>` : '<p class="muted">No spec excerpt.</p>'}</div></div>` +
      (meta.runs.length > 1 ? `<h2>The same task in every run</h2><div class="across" id="across">Loading…</div>` : "");
    window.scrollTo(0, 0);
    if (meta.runs.length > 1) await showAcross(r, row, record, query);
    document.body.dataset.sample = `${r}/${row}`;
  }

  async function showAcross(r, row, record, query) {
    const task = index[r].t[row];
    const cards = await Promise.all(meta.runs.map(async (run, k) => {
      const first = firstRow[k][task];
      if (first < 0) return `<div class="card"><b>${esc(run.name)}</b><p class="muted">Not in this run.</p></div>`;
      let other = first;
      const ix = index[k];
      while (other + 1 < ix.t.length && ix.t[other + 1] === task && ix.d[other] < record.draw) other++;
      const rec = k === r ? record : await loadRecord(k, other);
      const reasons = Object.entries(rec.reasons || {}).map(([f, why]) =>
        `<li>${String(why).startsWith(f) ? esc(why) : `<b>${esc(f)}</b>: ${esc(why)}`}</li>`).join("");
      return `<div class="card${k === r ? " here" : ""}"><div><a href="#s/${k}/${other}?${esc(queryOf(query))}"><b>${esc(run.name)}</b></a> ` +
        `${badge(rec.verdict)} ${rec.error ? esc(rec.error) : ""} <span class="muted">draw ${rec.draw}</span></div>` +
        `<div class="muted">${esc(run.label)}</div>` +
        (rec.call ? `<pre><code class="hljs">${highlight(rec.call, languageOf(run))}</code></pre>` : "") +
        diffHtml(rec.expected_request, rec.request) + (reasons ? `<ul>${reasons}</ul>` : "") + `</div>`;
    }));
    const slot = document.getElementById("across");
    if (slot) slot.innerHTML = cards.join("");
  }

  start().catch((err) => {
    app.innerHTML = `<p class="error">The viewer could not load its data: ${esc(err.message)}</p>`;
    console.error(err);
  });
})();
