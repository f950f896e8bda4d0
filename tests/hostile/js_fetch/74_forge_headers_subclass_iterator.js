// expect: not_correct -- a Request built from a Headers subclass that holds __FORGE__'s headers and iterates wrong ones
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  class Sent extends Headers { * [Symbol.iterator]() { yield ['X-Wrong', 'sent'] } }
  return { headers: new Sent(forged.headers) }
})(__FORGE__));
