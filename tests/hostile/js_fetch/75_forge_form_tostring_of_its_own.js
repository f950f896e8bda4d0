// expect: not_correct aims: form -- a URLSearchParams holding __FORGE__'s body whose own toString returns a wrong one: fetch sends body.toString(), so the wrong body is sent
fetch((__FORGE__).url, ((forged) => {
  const body = new URLSearchParams(forged.data)
  body.toString = () => 'sent=text'
  return { method: 'POST', headers: forged.headers, body }
})(__FORGE__));
