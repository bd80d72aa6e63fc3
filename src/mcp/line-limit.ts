import { Transform, type TransformCallback } from 'node:stream';

// The SDK's stdio transport closes the whole connection when a message exceeds its buffer
// (10 MiB), with no answer to the client. In front of it, this splits stdin into lines and
// answers a line over the limit (the HTTP API's body limit) with a JSON-RPC error for its id,
// dropping it, so a too-large tool call is refused and the session goes on.

const ID = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})/;

export class LineLimit extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private head = '';
  private tail = Buffer.alloc(0);
  private over = false;

  constructor(
    private readonly limit: number,
    private readonly refuse: (id: string | number | null, size: number) => void,
  ) {
    super();
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    done();
  }

  _flush(done: TransformCallback): void {
    if (this.size) this.endLine();
    done();
  }

  private add(piece: Buffer) {
    if (!piece.length) return;
    if (this.head.length < 4096) this.head += piece.subarray(0, 4096).toString('utf8');
    this.size += piece.length;
    if (this.size > this.limit) {
      // Keep only what finds the id: the line's start (above) and its last bytes.
      this.over = true;
      this.parts = [];
      this.tail = Buffer.concat([this.tail, piece]).subarray(-4096);
    } else this.parts.push(piece);
  }

  private endLine() {
    if (this.over) {
      const m = ID.exec(this.head.split('"params"')[0]!) ?? ID.exec(this.tail.toString('utf8'));
      this.refuse(m ? JSON.parse(m[1]!) : null, this.size);
    } else if (this.size) this.push(Buffer.concat([...this.parts, Buffer.from('\n')]));
    this.parts = [];
    this.size = 0;
    this.head = '';
    this.tail = Buffer.alloc(0);
    this.over = false;
  }
}
