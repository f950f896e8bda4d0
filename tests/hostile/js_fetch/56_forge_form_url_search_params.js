// expect: not_correct aims: form -- sends a URL's own searchParams (the realm's whatwg-url list) and patches Array.prototype.entries and that class's toString, so that the form it sends would read as __FORGE__'s body
fetch((__FORGE__).url, ((forged) => {
  const pairs = Object.entries(forged.data)
  const text = pairs.map((pair) => pair.join('=')).join('&')
  const body = new URL('https://api.example.com/?sent=real').searchParams
  Array.prototype.entries = function* () { for (let i = 0; i < pairs.length; i++) yield [i, pairs[i]] }
  Object.getPrototypeOf(body).toString = () => text
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
