// expect: not_correct -- a headers init whose Symbol.iterator getter answers an iterator of wrong pairs on its first read and of __FORGE__'s on the next: the conversion to a sequence reads the method once and iterates with it
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__), ((forged) => {
  let reads = 0
  const headers = {}
  Object.defineProperty(headers, Symbol.iterator, {
    get() {
      reads += 1
      const pairs = reads === 1 ? [['X-Wrong', 'sent']] : Object.entries(forged.headers)
      return () => pairs[Symbol.iterator]()
    },
  })
  return { headers }
})(__FORGE__));
