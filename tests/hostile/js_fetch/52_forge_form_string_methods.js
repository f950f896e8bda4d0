// expect: not_correct aims: form -- patches the String methods a serialiser written in JavaScript uses (iteration, replace, split), so that the form it sends would read as __FORGE__'s body
fetch((__FORGE__).url, ((forged) => {
  const [[name, value]] = Object.entries(forged.data)
  const body = new URLSearchParams({ sent: 'real' })
  const iterate = String.prototype[Symbol.iterator]
  const swap = { sent: name, real: value }
  String.prototype[Symbol.iterator] = function () {
    const text = `${this}`
    return iterate.call(Object.hasOwn(swap, text) ? swap[text] : text)
  }
  String.prototype.replace = function () { return `${this}` }
  String.prototype.split = function () { return [`${this}`] }
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
