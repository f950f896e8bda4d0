// expect: not_correct aims: form -- a FormData holding __FORGE__'s body whose own iterator yields a wrong entry: fetch sends what the iteration yields
fetch((__FORGE__).url, ((forged) => {
  const body = new FormData()
  for (const [name, value] of Object.entries(forged.data)) body.append(name, value)
  body[Symbol.iterator] = function* () { yield ['sent', 'text'] }
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
