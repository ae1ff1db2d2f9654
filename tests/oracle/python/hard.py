"""Hard cases for Python blocks: strings, decorators, continuations."""
import functools


def plain(a, b):
    return a + b


@functools.lru_cache(maxsize=None)
def decorated(x):
    text = """a multi-line string
def not_a_function():
    pass
"""
    return text * x


@staticmethod
@functools.wraps(plain)
def two_decorators(
    first,
    second=(1, 2),
    *args,
    **kwargs,
):
    if first:
        return second
    value = first + \
        second
    return value


async def coroutine(url):
    async with session(url) as s:
        return await s.read()


class Base:
    """Docstring with def inside: def x(): pass"""

    attr = {"def": 1}

    def method(self):
        data = [
            1,
            2,
        ]
        return data

    @property
    def prop(self):
        return 'it\'s a string with "quotes" and # not a comment'

    class Inner:
        def inner_method(self):
            def nested(y):
                return y
            return nested(1)

    def one_line(self): return 1

    def after_one_line(self):
        s = r"raw \" string"
        t = f"{self.attr['def']} braces {{ }}"
        return s + t


def with_comment_dedent():
    x = 1
# a comment at column 0 inside the function
    y = 2
    return x + y


def last_function():
    return '''single '' quoted
multi-line'''
