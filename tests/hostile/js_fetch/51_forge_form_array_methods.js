// expect: not_correct aims: form -- patches the Array methods a serialiser written in JavaScript uses (entries, map, join), so that the form it sends would read as __FORGE__'s body
fetch((__FORGE__).url, ((forged) => {
  const pairs = Object.entries(forged.data)
  const text = `${pairs[0][0]}=${pairs[0][1]}`
  const body = new URLSearchParams({ sent: 'real' })
  Array.prototype.entries = function* () { for (let i = 0; i < pairs.length; i++) yield [i, pairs[i]] }
  const init = { method: 'POST', headers: forged.headers, body }
  Array.prototype.map = function (f) { return this.length === 1 && this[0] === 'sent' ? [text] : Array.from(this, f) }
  Array.prototype.join = function () { return text }
  return init
})(__FORGE__));
