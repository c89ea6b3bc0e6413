// What the pages of `rulebook serve` share, loaded before each page's
// script: `$` finds an element by id; `api` sends a request to the JSON API
// and answers {ok, status, data}, data the JSON body (or {error} when the
// answer is not JSON).
"use strict";
const $ = (id) => document.getElementById(id);

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(url, init);
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
  return { ok: r.ok, status: r.status, data };
}
