/* wapii viewer: the list's filters, their URL form and the samples they select. A plain script (the page
 * loads it from disk, where modules cannot load) that Node can also require (tests/test_view_row_links.py).
 *
 * A filter is an object of URL keys; the facets of LIST_KEYS hold a list of accepted values (a sample
 * matches when its value is any of them; every facet given must match). In the URL a list is the key
 * repeated (error=timeout&error=no_request): any string round-trips, commas and "&" included, and a
 * value that names nothing the data holds selects no sample. */
(function (root) {
  "use strict";

  const FILTER_KEYS = ["run", "api", "verdict", "error", "field", "arguments", "url", "method", "q", "sel", "sort", "show", "a", "b"];
  const LIST_KEYS = ["verdict", "error", "field", "arguments", "url", "method"];
  const RUN_SHIFT = 1 << 22; // a row key: run * RUN_SHIFT + row

  function parse(text) {
    // the filter of a URL's query part (as written by query(); a key the viewer does not know is dropped)
    const params = new URLSearchParams(text || "");
    const out = {};
    FILTER_KEYS.forEach((k) => {
      const values = params.getAll(k).filter((v) => v !== "");
      if (values.length) out[k] = LIST_KEYS.includes(k) ? Array.from(new Set(values)) : values[values.length - 1];
    });
    return out;
  }

  function query(f) {
    const params = new URLSearchParams();
    FILTER_KEYS.forEach((k) => {
      const value = f[k];
      if (value == null || value === "") return;
      (Array.isArray(value) ? value : [value]).forEach((v) => { if (v !== "" && v != null) params.append(k, String(v)); });
    });
    return params.toString();
  }

  const list = (value) => value == null || value === "" ? [] : Array.isArray(value) ? value : [value];

  function lastColon(name) { const at = name.lastIndexOf(":"); return [name.slice(0, at), name.slice(at + 1)]; }

  function accepted(vocab, values, negatable) {
    // codes of the vocabulary accepted by a facet's values (null: no filter); for the verdict (a closed set
    // the reader checks), "!v": every code but v's; an error kind is a run file's string, taken as it is
    if (!values.length) return null;
    const ok = new Uint8Array(vocab.length);
    values.forEach((value) => {
      const not = negatable && typeof value === "string" && value[0] === "!";
      const at = vocab.indexOf(not ? value.slice(1) : value);
      if (not) vocab.forEach((name, c) => { if (c > 0 && c !== at) ok[c] = 1; });
      else if (at > 0) ok[at] = 1;
    });
    return ok;
  }

  function fieldMask(meta, values) {
    // bits of the index's "f" column for "group:verdict" values ("*:verdict": any group)
    let mask = 0;
    values.forEach((value) => {
      if (typeof value !== "string" || !value.includes(":")) return;
      const [group, verdict] = lastColon(value);
      meta.vocab.field.forEach((name, c) => {
        if (!name || c > 31) return;
        const [g, v] = lastColon(name);
        if ((group === "*" || g === group) && v === verdict) mask |= 1 << (c - 1);
      });
    });
    return mask;
  }

  function bucketMask(meta, values) {
    // bits of the index's "a" column (meta.arguments: the argument buckets the argument rows count)
    let mask = 0;
    values.forEach((value) => { const k = (meta.arguments || []).indexOf(value); if (k >= 0) mask |= 1 << k; });
    return mask;
  }

  function context(meta) {
    // what the API and search facets read, computed once per page
    const apis = Array.from(new Set(meta.tasks.apis));
    return {
      apis,
      taskApi: Int32Array.from(meta.tasks.apis, (a) => apis.indexOf(a)),
      taskText: meta.tasks.ids.map((id, i) => (id + " " + meta.tasks.texts[i]).toLowerCase()),
    };
  }

  function select(meta, index, runs, f, ctx) {
    // the keys (run * RUN_SHIFT + row) of the samples of `runs` that filter `f` selects, in run, row order
    let total = 0;
    runs.forEach((r) => { if (index[r]) total += index[r].t.length; });
    const out = new Int32Array(total);
    const verdict = accepted(meta.vocab.verdict, list(f.verdict), true);
    const error = accepted(meta.vocab.error, list(f.error));
    const url = accepted(meta.vocab.part, list(f.url));
    const method = accepted(meta.vocab.part, list(f.method));
    const fields = list(f.field), buckets = list(f.arguments);
    const mask = fieldMask(meta, fields), bits = bucketMask(meta, buckets);
    const api = f.api ? ctx.apis.indexOf(f.api) : -1;
    const apiWanted = !!f.api;
    let taskOk = null, endOk = null;
    if (f.q) {
      const words = String(f.q).toLowerCase().split(/\s+/).filter(Boolean);
      taskOk = Uint8Array.from(ctx.taskText, (t) => words.every((w) => t.includes(w)) ? 1 : 0);
      endOk = Uint8Array.from(meta.vocab.endpoint, (e) => e && words.every((w) => e.toLowerCase().includes(w)) ? 1 : 0);
    }
    let n = 0;
    for (const r of runs) {
      const ix = index[r];
      if (!ix) continue;
      const { t, v, e, u, m, f: fm, a: am, r: ends } = ix;
      for (let i = 0; i < t.length; i++) {
        if (verdict && !verdict[v[i]]) continue;
        if (error && !error[e[i]]) continue;
        if (url && !url[u[i]]) continue;
        if (method && !method[m[i]]) continue;
        if (apiWanted && ctx.taskApi[t[i]] !== api) continue;
        if (fields.length && (fm[i] & mask) === 0) continue;
        if (buckets.length && (!am || (am[i] & bits) === 0)) continue;
        if (taskOk && !taskOk[t[i]] && !endOk[ends[i]]) continue;
        out[n++] = r * RUN_SHIFT + i;
      }
    }
    return out.subarray(0, n);
  }

  const api = { FILTER_KEYS, LIST_KEYS, RUN_SHIFT, parse, query, list, context, select };
  if (typeof module !== "undefined" && module.exports) module.exports = api; else root.wapiiFilter = api;
})(typeof window !== "undefined" ? window : this);
