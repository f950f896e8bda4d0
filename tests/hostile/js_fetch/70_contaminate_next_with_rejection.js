// expect: not_correct -- ends its run with process.exit(0) right after leaving a rejection unhandled on a Promise subclass, so that the rejection would be reported while the next program runs and fail it
fetch('https://wrong.example/forged', (() => {
  setTimeout(() => {
    class Late extends Promise {}
    Late.reject(new Error('for the next program'))
    process.exit(0)
  }, 0)
  return {}
})());
