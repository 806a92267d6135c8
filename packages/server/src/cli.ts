console.error('The CLI arrives with its commands; see README.');
process.exit(2);
