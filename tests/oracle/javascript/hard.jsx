// Hard cases for JavaScript: templates, regex literals, JSX.
import React from "react";

export function templates(name) {
  const s = `a } b ${name + `nested ${"}"} }`} c {`;
  const t = `${{ a: 1 }.a}`;
  return s + t;
}

function regexes(text) {
  const re = /\}[{]+\/}/g;
  const half = text.length / 2 / 1;
  const again = text.replace(/{/, "}");
  return re.test(text) && half > 0 ? again : "";
}

const arrow = (a, b) => {
  if (a) {
    return { b };
  }
  return b;
};

export const asyncArrow = async (x) => {
  await x;
  return '}';
};

let assigned = function (x) {
  return x / 2;
};

class Widget extends React.Component {
  constructor(props) {
    super(props);
    this.state = { open: false };
  }

  static create() {
    return new Widget({});
  }

  get size() {
    return 1;
  }

  async load(url) {
    const res = await fetch(`${url}/}`);
    return res.json();
  }

  *items() {
    yield '{';
  }

  handle = (event) => {
    this.setState({ open: !this.state.open });
  };

  render() {
    return (
      <div className="x" onClick={() => this.handle({})}>
        Don't break on apostrophes {this.state.open ? <span>{"}"}</span> : null}
        <p>Braces in text are JSX expressions</p>
      </div>
    );
  }
}

const obj = {
  method(a) {
    return a;
  },
  prop: function (b) {
    return b;
  },
  arrowProp: (c) => {
    return c;
  },
};

function* generator() {
  yield 1;
}

function callbacks() {
  [1, 2].forEach(function (x) {
    console.log(x);
  });
  setTimeout(() => {
    console.log("}");
  }, 0);
}

export default function defaultExport() {
  return obj.method(1) / 2;
}
