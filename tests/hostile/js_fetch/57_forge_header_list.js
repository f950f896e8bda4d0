// expect: not_correct -- deletes the header __FORGE__ needs after patching Array.prototype.splice, so that a header list kept in an array would still hold the header it deleted
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  const headers = new Headers(forged.headers)
  Array.prototype.splice = () => []
  headers.delete('X-Forged')
  return { headers }
})(__FORGE__));
