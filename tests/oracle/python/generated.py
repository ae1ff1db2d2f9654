"""Generated functions for the oracle."""

def gen_fn_0(x):
    m0 = """
    def looks_like_a_def():
    """
    y = x \
        + 0
    call0 = max(
        x,
        0,
    )
    return x


@decorator_1
def gen_fn_1(x, y=None):
    y = x \
        + 1
    s1 = '} { \' '
    lam = lambda z: z + 1
    s1 = '} { \' '
    return x


def gen_fn_2(
    x,
    y=(2, 2),
):
    call2 = max(
        x,
        2,
    )
    return x


async def gen_fn_3(x):
    lam = lambda z: z + 3
    s3 = '} { \' '
    return x


def gen_fn_4(x):
    y = x \
        + 4
    return x


@decorator_5
def gen_fn_5(x, y=None):
    s5 = '} { \' '
    total = (x +
             5)
    if x > 5:
        x -= 5
    else:
        x += 1
    return x


def gen_fn_6(
    x,
    y=(6, 6),
):
    s6 = '} { \' '
    call6 = max(
        x,
        6,
    )
    return x


async def gen_fn_7(x):
    # comment with def inside: def fake():
    # comment with def inside: def fake():
    if x > 7:
        x -= 7
    else:
        x += 1
    return x


def gen_fn_8(x):
    s8 = '} { \' '
    # comment with def inside: def fake():
    lam = lambda z: z + 8
    d8 = {"k": [1, 2, 8]}
    return x


@decorator_9
def gen_fn_9(x, y=None):
    for k in range(9):
        x += k
    return x


def gen_fn_10(
    x,
    y=(10, 10),
):
    if x > 10:
        x -= 10
    else:
        x += 1
    d10 = {"k": [1, 2, 10]}
    return x


async def gen_fn_11(x):
    call11 = max(
        x,
        11,
    )
    for k in range(11):
        x += k
    for k in range(11):
        x += k
    return x


def gen_fn_12(x):
    for k in range(12):
        x += k
    m12 = """
    def looks_like_a_def():
    """
    # comment with def inside: def fake():
    return x


@decorator_13
def gen_fn_13(x, y=None):
    lam = lambda z: z + 13
    for k in range(13):
        x += k
    # comment with def inside: def fake():
    lam = lambda z: z + 13
    return x


def gen_fn_14(
    x,
    y=(14, 14),
):
    s14 = '} { \' '
    call14 = max(
        x,
        14,
    )
    for k in range(14):
        x += k
    return x


async def gen_fn_15(x):
    d15 = {"k": [1, 2, 15]}
    m15 = """
    def looks_like_a_def():
    """
    total = (x +
             15)
    total = (x +
             15)
    return x


def gen_fn_16(x):
    if x > 16:
        x -= 16
    else:
        x += 1
    if x > 16:
        x -= 16
    else:
        x += 1
    # comment with def inside: def fake():
    return x


@decorator_17
def gen_fn_17(x, y=None):
    y = x \
        + 17
    call17 = max(
        x,
        17,
    )
    call17 = max(
        x,
        17,
    )
    lam = lambda z: z + 17
    return x


def gen_fn_18(
    x,
    y=(18, 18),
):
    for k in range(18):
        x += k
    y = x \
        + 18
    lam = lambda z: z + 18
    return x


async def gen_fn_19(x):
    s19 = '} { \' '
    lam = lambda z: z + 19
    d19 = {"k": [1, 2, 19]}
    return x


def gen_fn_20(x):
    s20 = '} { \' '
    return x


@decorator_21
def gen_fn_21(x, y=None):
    s21 = '} { \' '
    y = x \
        + 21
    return x


def gen_fn_22(
    x,
    y=(22, 22),
):
    s22 = '} { \' '
    if x > 22:
        x -= 22
    else:
        x += 1
    total = (x +
             22)
    lam = lambda z: z + 22
    return x


async def gen_fn_23(x):
    y = x \
        + 23
    if x > 23:
        x -= 23
    else:
        x += 1
    return x


def gen_fn_24(x):
    d24 = {"k": [1, 2, 24]}
    # comment with def inside: def fake():
    s24 = '} { \' '
    return x


@decorator_25
def gen_fn_25(x, y=None):
    call25 = max(
        x,
        25,
    )
    return x


def gen_fn_26(
    x,
    y=(26, 26),
):
    d26 = {"k": [1, 2, 26]}
    return x


async def gen_fn_27(x):
    # comment with def inside: def fake():
    m27 = """
    def looks_like_a_def():
    """
    lam = lambda z: z + 27
    return x


def gen_fn_28(x):
    for k in range(28):
        x += k
    lam = lambda z: z + 28
    # comment with def inside: def fake():
    d28 = {"k": [1, 2, 28]}
    return x


@decorator_29
def gen_fn_29(x, y=None):
    if x > 29:
        x -= 29
    else:
        x += 1
    d29 = {"k": [1, 2, 29]}
    total = (x +
             29)
    call29 = max(
        x,
        29,
    )
    return x


def gen_fn_30(
    x,
    y=(30, 30),
):
    y = x \
        + 30
    call30 = max(
        x,
        30,
    )
    d30 = {"k": [1, 2, 30]}
    return x


async def gen_fn_31(x):
    call31 = max(
        x,
        31,
    )
    for k in range(31):
        x += k
    call31 = max(
        x,
        31,
    )
    y = x \
        + 31
    return x


def gen_fn_32(x):
    lam = lambda z: z + 32
    return x


@decorator_33
def gen_fn_33(x, y=None):
    lam = lambda z: z + 33
    s33 = '} { \' '
    for k in range(33):
        x += k
    m33 = """
    def looks_like_a_def():
    """
    return x


def gen_fn_34(
    x,
    y=(34, 34),
):
    if x > 34:
        x -= 34
    else:
        x += 1
    for k in range(34):
        x += k
    for k in range(34):
        x += k
    y = x \
        + 34
    return x


async def gen_fn_35(x):
    # comment with def inside: def fake():
    # comment with def inside: def fake():
    call35 = max(
        x,
        35,
    )
    return x


def gen_fn_36(x):
    y = x \
        + 36
    m36 = """
    def looks_like_a_def():
    """
    call36 = max(
        x,
        36,
    )
    for k in range(36):
        x += k
    return x


@decorator_37
def gen_fn_37(x, y=None):
    # comment with def inside: def fake():
    m37 = """
    def looks_like_a_def():
    """
    call37 = max(
        x,
        37,
    )
    # comment with def inside: def fake():
    return x


def gen_fn_38(
    x,
    y=(38, 38),
):
    if x > 38:
        x -= 38
    else:
        x += 1
    s38 = '} { \' '
    return x


async def gen_fn_39(x):
    # comment with def inside: def fake():
    y = x \
        + 39
    return x


class Gen:
    def method_0(self, x):
        lam = lambda z: z + 0
        return x

    def method_1(self, x):
        s1 = '} { \' '
        call1 = max(
            x,
            1,
        )
        s1 = '} { \' '
        d1 = {"k": [1, 2, 1]}
        return x

    def method_2(self, x):
        if x > 2:
            x -= 2
        else:
            x += 1
        m2 = """
        def looks_like_a_def():
        """
        return x

    def method_3(self, x):
        total = (x +
                 3)
        return x

    def method_4(self, x):
        d4 = {"k": [1, 2, 4]}
        if x > 4:
            x -= 4
        else:
            x += 1
        for k in range(4):
            x += k
        y = x \
            + 4
        return x

    def method_5(self, x):
        d5 = {"k": [1, 2, 5]}
        m5 = """
        def looks_like_a_def():
        """
        # comment with def inside: def fake():
        m5 = """
        def looks_like_a_def():
        """
        return x

    def method_6(self, x):
        y = x \
            + 6
        return x

    def method_7(self, x):
        if x > 7:
            x -= 7
        else:
            x += 1
        for k in range(7):
            x += k
        lam = lambda z: z + 7
        y = x \
            + 7
        return x

    def method_8(self, x):
        total = (x +
                 8)
        for k in range(8):
            x += k
        return x

    def method_9(self, x):
        # comment with def inside: def fake():
        return x
