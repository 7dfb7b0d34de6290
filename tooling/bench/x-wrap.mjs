process.on("message", (m) => { if (m === "exit") process.exit(0); });
await import(process.argv[2].startsWith("xs/") ? `./${process.argv[2]}` : `./servers/${process.argv[2]}`);
