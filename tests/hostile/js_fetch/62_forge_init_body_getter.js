// expect: not_correct aims: form -- a body getter that answers a text body on its first reads and __FORGE__'s form on a later one: fetch reads init.body once, so the text is sent
fetch((__FORGE__).url, ((forged) => {
  let reads = 0
  return { method: 'POST', headers: forged.headers, get body() { reads += 1; return reads === 1 ? 'sent=text' : new URLSearchParams(forged.data) } }
})(__FORGE__));
