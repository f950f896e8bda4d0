// expect: not_correct aims: form -- patches the encoders a form serialiser may use (encodeURIComponent, escape, TextEncoder.prototype.encode), so that the form it sends ('sent=real', given as a string) would read as __FORGE__'s body
fetch((__FORGE__).url, ((forged) => {
  const [[name, value]] = Object.entries(forged.data)
  const body = new URLSearchParams('sent=real')
  const encode = TextEncoder.prototype.encode
  const swap = { s: name, r: value }
  TextEncoder.prototype.encode = function (text) {
    return encode.call(this, Object.hasOwn(swap, text) ? swap[text] : text.length === 1 && text !== '=' && text !== '&' ? '' : text)
  }
  globalThis.encodeURIComponent = () => `${name}=${value}`
  globalThis.escape = globalThis.encodeURIComponent
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
