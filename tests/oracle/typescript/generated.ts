// Generated functions for the oracle.

export function genFn0(x: number): number {
  [1, 2].map((v) => {
    return v + 0;
  });
  return x;
}

const genFn1 = (x: number): number => {
  const o1 = { a: { b: '}' } };
  const d1 = x / 1 / 2;
  if (x > 1) {
    x -= 1;
  }
  return x;
};

function genFn2<T>(
  x: number,
  y?: T,
): number {
  const d2 = x / 2 / 2;
  const o2 = { a: { b: '}' } };
  const d2 = x / 2 / 2;
  return x;
}

export function genFn3(x: number): number {
  if (x > 3) {
    x -= 3;
  }
  // comment with } and {
  if (x > 3) {
    x -= 3;
  }
  const r3 = /[}{]+\/}/.test(String(x));
  return x;
}

const genFn4 = (x: number): number => {
  if (x > 4) {
    x -= 4;
  }
  if (x > 4) {
    x -= 4;
  }
  return x;
};

function genFn5<T>(
  x: number,
  y?: T,
): number {
  const d5 = x / 5 / 2;
  return x;
}

export function genFn6(x: number): number {
  const t6 = `${x} } ${`{`} {`;
  const t6 = `${x} } ${`{`} {`;
  const d6 = x / 6 / 2;
  return x;
}

const genFn7 = (x: number): number => {
  if (x > 7) {
    x -= 7;
  }
  const s7 = "} { \" }";
  return x;
};

function genFn8<T>(
  x: number,
  y?: T,
): number {
  /* block } comment { */
  const r8 = /[}{]+\/}/.test(String(x));
  // comment with } and {
  if (x > 8) {
    x -= 8;
  }
  return x;
}

export function genFn9(x: number): number {
  if (x > 9) {
    x -= 9;
  }
  // comment with } and {
  // comment with } and {
  const d9 = x / 9 / 2;
  return x;
}

const genFn10 = (x: number): number => {
  const o10 = { a: { b: '}' } };
  /* block } comment { */
  return x;
};

function genFn11<T>(
  x: number,
  y?: T,
): number {
  const q11 = '} {';
  for (let k = 0; k < 11; k++) {
    x += k;
  }
  [1, 2].map((v) => {
    return v + 11;
  });
  [1, 2].map((v) => {
    return v + 11;
  });
  return x;
}

export function genFn12(x: number): number {
  const q12 = '} {';
  [1, 2].map((v) => {
    return v + 12;
  });
  [1, 2].map((v) => {
    return v + 12;
  });
  const t12 = `${x} } ${`{`} {`;
  return x;
}

const genFn13 = (x: number): number => {
  const t13 = `${x} } ${`{`} {`;
  const d13 = x / 13 / 2;
  return x;
};

function genFn14<T>(
  x: number,
  y?: T,
): number {
  for (let k = 0; k < 14; k++) {
    x += k;
  }
  const d14 = x / 14 / 2;
  return x;
}

export function genFn15(x: number): number {
  const d15 = x / 15 / 2;
  const t15 = `${x} } ${`{`} {`;
  const t15 = `${x} } ${`{`} {`;
  return x;
}

const genFn16 = (x: number): number => {
  const s16 = "} { \" }";
  for (let k = 0; k < 16; k++) {
    x += k;
  }
  const o16 = { a: { b: '}' } };
  if (x > 16) {
    x -= 16;
  }
  return x;
};

function genFn17<T>(
  x: number,
  y?: T,
): number {
  /* block } comment { */
  const q17 = '} {';
  return x;
}

export function genFn18(x: number): number {
  const s18 = "} { \" }";
  const t18 = `${x} } ${`{`} {`;
  const r18 = /[}{]+\/}/.test(String(x));
  return x;
}

const genFn19 = (x: number): number => {
  if (x > 19) {
    x -= 19;
  }
  const s19 = "} { \" }";
  const d19 = x / 19 / 2;
  return x;
};

function genFn20<T>(
  x: number,
  y?: T,
): number {
  const q20 = '} {';
  return x;
}

export function genFn21(x: number): number {
  for (let k = 0; k < 21; k++) {
    x += k;
  }
  return x;
}

const genFn22 = (x: number): number => {
  const q22 = '} {';
  for (let k = 0; k < 22; k++) {
    x += k;
  }
  // comment with } and {
  return x;
};

function genFn23<T>(
  x: number,
  y?: T,
): number {
  /* block } comment { */
  const q23 = '} {';
  [1, 2].map((v) => {
    return v + 23;
  });
  const r23 = /[}{]+\/}/.test(String(x));
  return x;
}

export function genFn24(x: number): number {
  for (let k = 0; k < 24; k++) {
    x += k;
  }
  const t24 = `${x} } ${`{`} {`;
  const d24 = x / 24 / 2;
  return x;
}

const genFn25 = (x: number): number => {
  /* block } comment { */
  const q25 = '} {';
  return x;
};

function genFn26<T>(
  x: number,
  y?: T,
): number {
  // comment with } and {
  return x;
}

export function genFn27(x: number): number {
  const t27 = `${x} } ${`{`} {`;
  if (x > 27) {
    x -= 27;
  }
  return x;
}

export class Gen {

  private method0(x: number): number {
    const d0 = x / 0 / 2;
    const d0 = x / 0 / 2;
    [1, 2].map((v) => {
      return v + 0;
    });
    return x;
  }

  static method1(x: number): number {
    const q1 = '} {';
    return x;
  }

  method2(x: number): number {
    if (x > 2) {
      x -= 2;
    }
    return x;
  }

  static method3(x: number): number {
    const s3 = "} { \" }";
    const q3 = '} {';
    return x;
  }

  private method4(x: number): number {
    // comment with } and {
    return x;
  }

  private method5(x: number): number {
    const d5 = x / 5 / 2;
    if (x > 5) {
      x -= 5;
    }
    // comment with } and {
    for (let k = 0; k < 5; k++) {
      x += k;
    }
    return x;
  }

  public method6(x: number): number {
    const o6 = { a: { b: '}' } };
    return x;
  }

  private method7(x: number): number {
    for (let k = 0; k < 7; k++) {
      x += k;
    }
    return x;
  }

}
