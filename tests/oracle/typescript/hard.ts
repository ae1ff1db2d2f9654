// Hard cases for TypeScript.
export interface Shape {
  area(): number;
}

export function generic<T extends { id: string }>(items: T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const it of items) {
    m.set(`${it.id}}`, it);
  }
  return m;
}

export class Circle implements Shape {
  private readonly r: number;

  constructor(r: number) {
    this.r = r;
  }

  public area(): number {
    return Math.PI * this.r * this.r;
  }

  protected static fromJSON(json: string): Circle {
    const o = JSON.parse(json) as { r: number };
    return new Circle(o.r);
  }

  private async load<T>(url: string): Promise<T | undefined> {
    const r = /\/api\/{id}/;
    return undefined;
  }

  handler = (e: Event): void => {
    console.log(e, "}");
  };
}

export const typedArrow = async (
  a: number,
  b: { x: string },
): Promise<number> => {
  return a / 2;
};

enum Color {
  Red = "{",
  Green = "}",
}

namespace Geometry {
  export function distance(a: number, b: number): number {
    return Math.abs(a - b);
  }
}

function overloaded(x: string): string;
function overloaded(x: number): number;
function overloaded(x: any): any {
  return x;
}

export default class {
  run(): void {}
}
