// expect: runtime_error -- after its request, leaves rejections unhandled on promises the worker would not recognise as the run's (a prototype set to null, a Promise subclass): Node ends such a program with an error, so it must not be judged on its request
fetch('https://api.example.com/items/1', (() => {
  setTimeout(() => {
    const p = Promise.reject(new Error('unhandled'))
    Object.setPrototypeOf(p, null)
    class Quiet extends Promise {}
    Quiet.reject(new Error('unhandled too'))
  }, 0)
  return {}
})());
