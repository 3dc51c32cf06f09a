/**
 * Saves `text` as a file named `fileName` through a Blob URL (the shell's own downloadFile
 * would bundle JSZip into the package for this).
 */
export function downloadText(fileName: string, text: string, contentType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: contentType }));
  const link = document.createElement('a');

  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click was handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
