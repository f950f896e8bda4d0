// expect: not_correct -- sends a request with fetch to a local service (captured, never sent)
fetch('http://127.0.0.1:__CANARY_PORT__/fetch');
