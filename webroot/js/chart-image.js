// A chart saved as an image: PNG or SVG, as Vega renders it (view.toImageURL). The image is a data: or blob: URL the
// page made itself, saved through a download link, so the CSP needs nothing more than it allows already.
import { chartView } from './chart.js';
import { fileStem, saveFile } from './save-file.js';

/** "Download PNG" and "Download SVG" for the chart drawn in holder; null when nothing is drawn there. */
export function chartImageActions(holder, title) {
  if (!chartView(holder)) return null;
  const bar = document.createElement('div');
  bar.className = 'chart-image-actions';
  const status = document.createElement('span');
  status.className = 'result-actions-status';
  status.setAttribute('role', 'status');
  for (const format of ['png', 'svg']) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `Download ${format.toUpperCase()}`;
    button.title = `The chart as a ${format.toUpperCase()} image`;
    button.addEventListener('click', async () => {
      status.classList.remove('error');
      status.textContent = '';
      try {
        // The view of the chart as drawn now (a theme change draws it again): PNG at twice the size, for sharpness.
        const view = chartView(holder);
        const url = await view.toImageURL(format, format === 'png' ? 2 : 1);
        saveFile(url, `${fileStem(title, 'chart')}.${format}`);
      } catch (e) {
        status.classList.add('error');
        status.textContent = `The chart could not be saved: ${e.message}`;
      }
    });
    bar.append(button);
  }
  bar.append(status);
  return bar;
}
