// expect: not_correct aims: form -- patches Array.prototype.push and String before it fills a FormData, so that the entry list a FormData written in JavaScript keeps would hold __FORGE__'s body instead of what it appends
fetch((__FORGE__).url, ((forged) => {
  const pairs = Object.entries(forged.data)
  const push = Array.prototype.push
  Array.prototype.push = function (...items) {
    return push.apply(this, items.map((item) => (Array.isArray(item) && item.length === 2 && item[0] === 'sent' ? pairs[0] : item)))
  }
  const S = String
  globalThis.String = (v) => (S(v) === 'real' ? pairs[0][1] : S(v) === 'sent' ? pairs[0][0] : S(v))
  const body = new FormData()
  body.append('sent', 'real')
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
