// expect: runtime_error -- leaves a rejection unhandled on a Promise subclass and then loops until its time runs out, so that the rejection would be reported while the next program runs and fail it
fetch('https://wrong.example/forged', (() => {
  class Late extends Promise {}
  Late.reject(new Error('for the next program'))
  while (true) {}
})());
