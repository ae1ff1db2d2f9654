// Generated functions for the oracle.

function genFn0(x) {
  [1, 2].map((v) => {
    return v + 0;
  });
  const t0 = `${x} } ${`{`} {`;
  for (let k = 0; k < 0; k++) {
    x += k;
  }
  return x;
}

export const genFn1 = (x) => {
  [1, 2].map((v) => {
    return v + 1;
  });
  return x;
};

async function genFn2(
  x,
  y = {},
) {
  const d2 = x / 2 / 2;
  const t2 = `${x} } ${`{`} {`;
  const r2 = /[}{]+\/}/.test(String(x));
  return x;
}

function genFn3(x) { return x + 3; }

function genFn4(x) {
  for (let k = 0; k < 4; k++) {
    x += k;
  }
  const r4 = /[}{]+\/}/.test(String(x));
  if (x > 4) {
    x -= 4;
  }
  // comment with } and {
  return x;
}

export const genFn5 = (x) => {
  const r5 = /[}{]+\/}/.test(String(x));
  const d5 = x / 5 / 2;
  return x;
};

async function genFn6(
  x,
  y = {},
) {
  const r6 = /[}{]+\/}/.test(String(x));
  const t6 = `${x} } ${`{`} {`;
  const s6 = "} { \" }";
  const t6 = `${x} } ${`{`} {`;
  return x;
}

function genFn7(x) { return x + 7; }

function genFn8(x) {
  // comment with } and {
  const q8 = '} {';
  const s8 = "} { \" }";
  const s8 = "} { \" }";
  return x;
}

export const genFn9 = (x) => {
  const o9 = { a: { b: '}' } };
  const s9 = "} { \" }";
  /* block } comment { */
  for (let k = 0; k < 9; k++) {
    x += k;
  }
  return x;
};

async function genFn10(
  x,
  y = {},
) {
  for (let k = 0; k < 10; k++) {
    x += k;
  }
  return x;
}

function genFn11(x) { return x + 11; }

function genFn12(x) {
  /* block } comment { */
  const s12 = "} { \" }";
  const s12 = "} { \" }";
  if (x > 12) {
    x -= 12;
  }
  return x;
}

export const genFn13 = (x) => {
  if (x > 13) {
    x -= 13;
  }
  return x;
};

async function genFn14(
  x,
  y = {},
) {
  const s14 = "} { \" }";
  // comment with } and {
  return x;
}

function genFn15(x) { return x + 15; }

function genFn16(x) {
  // comment with } and {
  const s16 = "} { \" }";
  return x;
}

export const genFn17 = (x) => {
  if (x > 17) {
    x -= 17;
  }
  const d17 = x / 17 / 2;
  return x;
};

async function genFn18(
  x,
  y = {},
) {
  /* block } comment { */
  return x;
}

function genFn19(x) { return x + 19; }

function genFn20(x) {
  // comment with } and {
  /* block } comment { */
  const o20 = { a: { b: '}' } };
  return x;
}

export const genFn21 = (x) => {
  const q21 = '} {';
  return x;
};

async function genFn22(
  x,
  y = {},
) {
  /* block } comment { */
  const q22 = '} {';
  return x;
}

function genFn23(x) { return x + 23; }

function genFn24(x) {
  if (x > 24) {
    x -= 24;
  }
  if (x > 24) {
    x -= 24;
  }
  const s24 = "} { \" }";
  // comment with } and {
  return x;
}

export const genFn25 = (x) => {
  /* block } comment { */
  const q25 = '} {';
  const d25 = x / 25 / 2;
  return x;
};

async function genFn26(
  x,
  y = {},
) {
  const q26 = '} {';
  [1, 2].map((v) => {
    return v + 26;
  });
  [1, 2].map((v) => {
    return v + 26;
  });
  return x;
}

function genFn27(x) { return x + 27; }

function genFn28(x) {
  // comment with } and {
  const r28 = /[}{]+\/}/.test(String(x));
  return x;
}

export const genFn29 = (x) => {
  // comment with } and {
  // comment with } and {
  return x;
};

async function genFn30(
  x,
  y = {},
) {
  // comment with } and {
  return x;
}

function genFn31(x) { return x + 31; }

function genFn32(x) {
  /* block } comment { */
  return x;
}

export const genFn33 = (x) => {
  const d33 = x / 33 / 2;
  if (x > 33) {
    x -= 33;
  }
  // comment with } and {
  const r33 = /[}{]+\/}/.test(String(x));
  return x;
};

class Gen {

  method0(x) {
    const s0 = "} { \" }";
    for (let k = 0; k < 0; k++) {
      x += k;
    }
    return x;
  }

  method1(x) {
    /* block } comment { */
    if (x > 1) {
      x -= 1;
    }
    const r1 = /[}{]+\/}/.test(String(x));
    return x;
  }

  method2(x) {
    const d2 = x / 2 / 2;
    const q2 = '} {';
    return x;
  }

  method3(x) {
    for (let k = 0; k < 3; k++) {
      x += k;
    }
    for (let k = 0; k < 3; k++) {
      x += k;
    }
    const s3 = "} { \" }";
    // comment with } and {
    return x;
  }

  method4(x) {
    const s4 = "} { \" }";
    // comment with } and {
    return x;
  }

  method5(x) {
    // comment with } and {
    const s5 = "} { \" }";
    return x;
  }

  method6(x) {
    const s6 = "} { \" }";
    // comment with } and {
    return x;
  }

  method7(x) {
    if (x > 7) {
      x -= 7;
    }
    return x;
  }

}
