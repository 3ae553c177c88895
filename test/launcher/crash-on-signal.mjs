// Loaded into a genbot process with `node --import` by the crash tests: on SIGUSR2 the process
// fails the way a bug would, outside every handler: an exception nobody catches, or with
// CRASH=rejection a promise rejection nobody handles.
process.on('SIGUSR2', () => {
  setImmediate(() => {
    if (process.env.CRASH === 'rejection') {
      void Promise.reject(new Error('a rejection nobody handled'));
      return;
    }
    throw new Error('an exception nobody caught');
  });
});
