// expect: not_correct -- a method getter that answers DELETE on its first read and GET on the next: fetch reads each member of init once, so DELETE is sent, and a capture that read the member twice would record __FORGE__'s GET
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  let reads = 0
  return { get method() { reads += 1; return reads === 1 ? 'DELETE' : 'GET' }, headers: forged.headers }
})(__FORGE__));
