// expect: runtime_error -- a Request built with an unparsable referrer, then sent with a valid one: Node's Request constructor throws at once, so the program never sends it
fetch(new Request(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__),
  { method: __FORGE__.method, headers: __FORGE__.headers, referrer: 'http://[' }), { referrer: 'https://fine.example/' });
