/**
 * Child entry: runs one exported batch function of a benchmark module and
 * sends back what it returns. Arguments: module URL, export name, JSON input.
 */
const [moduleUrl, exportName, input] = process.argv.slice(2);
if (moduleUrl === undefined || exportName === undefined || input === undefined) {
  throw new Error('usage: batch-process.ts MODULE_URL EXPORT_NAME JSON_INPUT');
}
const module = (await import(moduleUrl)) as Record<string, unknown>;
const batch = module[exportName];
if (typeof batch !== 'function') throw new Error(`${moduleUrl} has no function export ${exportName}`);
const result: unknown = await batch(JSON.parse(input));
process.send?.(result, () => process.exit(0));
