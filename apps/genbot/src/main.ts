console.log("hello from main", process.argv.slice(2), process.env.INIT_CWD, process.cwd())
