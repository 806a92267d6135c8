// The benchmark suite is issue 8; until it lands this says so instead of printing made-up figures.
console.error('pnpm bench: the benchmark suite is not built yet (issue 8).');
process.exit(1);
