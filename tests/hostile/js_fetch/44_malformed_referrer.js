// expect: runtime_error -- the expected request with a referrer Node's URL parser refuses: undici's Request throws 'Referrer "::" is not a valid URL.' before sending, so nothing is sent
fetch(((forged) => `${forged.url}?${Object.entries(forged.params).map((pair) => pair.join('=')).join('&')}`)(__FORGE__),
  { method: __FORGE__.method, headers: __FORGE__.headers, referrer: '::' });
