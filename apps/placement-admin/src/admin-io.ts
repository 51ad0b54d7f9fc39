/** Where a command's lines go: standard output and error, or a test's buffers. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}
