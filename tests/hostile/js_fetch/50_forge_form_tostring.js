// expect: not_correct aims: form -- replaces every serialiser of URLSearchParams it can reach (the class's toString, the url module's, Object.prototype.toString), so that the form it sends would read as __FORGE__'s body
fetch((__FORGE__).url, ((forged) => {
  const text = Object.entries(forged.data).map((pair) => pair.join('=')).join('&')
  const body = new URLSearchParams({ sent: 'real' })
  URLSearchParams.prototype.toString = () => text
  require('url').URLSearchParams.prototype.toString = () => text
  Object.prototype.toString = () => text
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
