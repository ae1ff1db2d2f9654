// Unpacks the `extension/` folder of a .vsix (a zip) into a directory, so the tests run
// against exactly what the package installs. Usage: node scripts/unpack-vsix.cjs VSIX DIR
const fs = require('fs');
const path = require('path');
const yauzl = require('yauzl');

const [vsix, dir] = process.argv.slice(2);
if (!vsix || !dir) {
  console.error('usage: node scripts/unpack-vsix.cjs VSIX DIR');
  process.exit(2);
}
fs.rmSync(dir, { recursive: true, force: true });
yauzl.open(vsix, { lazyEntries: true }, (err, zip) => {
  if (err) throw err;
  let files = 0;
  zip.on('entry', (entry) => {
    const name = entry.fileName;
    if (!name.startsWith('extension/') || name.endsWith('/')) return zip.readEntry();
    const target = path.resolve(dir, name.slice('extension/'.length));
    if (!target.startsWith(path.resolve(dir) + path.sep)) throw new Error(`unsafe entry ${name}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    zip.openReadStream(entry, (e, stream) => {
      if (e) throw e;
      stream.pipe(fs.createWriteStream(target)).on('finish', () => {
        files += 1;
        zip.readEntry();
      });
    });
  });
  zip.on('end', () => console.log(`unpack-vsix: ${files} files into ${dir}`));
  zip.readEntry();
});
