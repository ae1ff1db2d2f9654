//! Generated functions for the oracle.

pub fn gen_fn_0(x: i32) -> i32 {
    // a comment with } and {
    let d0 = '\'';
    /* block } comment { */
    x
}

fn gen_fn_1<'a>(x: i32, _s: &'a str) -> i32
{
    /* block } comment { */
    let s1 = "} { \" }";
    let r1 = r#"} raw "quoted" {"#;
    x
}

pub(crate) fn gen_fn_2(
    x: i32,
    _y: i32,
) -> i32 {
    let f2 = |a: i32| { a + 2 };
    let _ = f2(1);
    let c2 = '{';
    let s2 = "} { \" }";
    x
}

fn gen_fn_3(x: i32) -> i32 { x + 3 }

pub fn gen_fn_4(x: i32) -> i32 {
    let d4 = '\'';
    x
}

fn gen_fn_5<'a>(x: i32, _s: &'a str) -> i32
{
    let s5 = "} { \" }";
    x
}

pub(crate) fn gen_fn_6(
    x: i32,
    _y: i32,
) -> i32 {
    /* block } comment { */
    let s6 = "} { \" }";
    x
}

fn gen_fn_7(x: i32) -> i32 { x + 7 }

pub fn gen_fn_8(x: i32) -> i32 {
    let v8: Vec<&'static str> = vec!["}"];
    let r8 = r#"} raw "quoted" {"#;
    if x > 8 {
        return x - 8;
    }
    let f8 = |a: i32| { a + 8 };
    let _ = f8(1);
    x
}

fn gen_fn_9<'a>(x: i32, _s: &'a str) -> i32
{
    let v9: Vec<&'static str> = vec!["}"];
    let r9 = r#"} raw "quoted" {"#;
    let b9 = b'{';
    x
}

pub(crate) fn gen_fn_10(
    x: i32,
    _y: i32,
) -> i32 {
    let b10 = b'{';
    x
}

fn gen_fn_11(x: i32) -> i32 { x + 11 }

pub fn gen_fn_12(x: i32) -> i32 {
    let r12 = r#"} raw "quoted" {"#;
    for k in 0..12 {
        let _ = k;
    }
    x
}

fn gen_fn_13<'a>(x: i32, _s: &'a str) -> i32
{
    let v13: Vec<&'static str> = vec!["}"];
    match x {
        0 => {}
        _ => { let _ = '}'; }
    }
    x
}

pub(crate) fn gen_fn_14(
    x: i32,
    _y: i32,
) -> i32 {
    match x {
        0 => {}
        _ => { let _ = '}'; }
    }
    x
}

fn gen_fn_15(x: i32) -> i32 { x + 15 }

pub fn gen_fn_16(x: i32) -> i32 {
    /* block } comment { */
    let c16 = '{';
    match x {
        0 => {}
        _ => { let _ = '}'; }
    }
    let v16: Vec<&'static str> = vec!["}"];
    x
}

fn gen_fn_17<'a>(x: i32, _s: &'a str) -> i32
{
    /* block } comment { */
    let s17 = "} { \" }";
    let c17 = '{';
    let f17 = |a: i32| { a + 17 };
    let _ = f17(1);
    x
}

pub(crate) fn gen_fn_18(
    x: i32,
    _y: i32,
) -> i32 {
    match x {
        0 => {}
        _ => { let _ = '}'; }
    }
    let s18 = "} { \" }";
    x
}

fn gen_fn_19(x: i32) -> i32 { x + 19 }

pub fn gen_fn_20(x: i32) -> i32 {
    for k in 0..20 {
        let _ = k;
    }
    let s20 = "} { \" }";
    x
}

fn gen_fn_21<'a>(x: i32, _s: &'a str) -> i32
{
    for k in 0..21 {
        let _ = k;
    }
    let s21 = "} { \" }";
    let r21 = r#"} raw "quoted" {"#;
    x
}

pub(crate) fn gen_fn_22(
    x: i32,
    _y: i32,
) -> i32 {
    /* block } comment { */
    /* block } comment { */
    x
}

fn gen_fn_23(x: i32) -> i32 { x + 23 }

pub fn gen_fn_24(x: i32) -> i32 {
    let b24 = b'{';
    x
}

fn gen_fn_25<'a>(x: i32, _s: &'a str) -> i32
{
    // a comment with } and {
    let s25 = "} { \" }";
    let f25 = |a: i32| { a + 25 };
    let _ = f25(1);
    x
}

pub(crate) fn gen_fn_26(
    x: i32,
    _y: i32,
) -> i32 {
    // a comment with } and {
    let f26 = |a: i32| { a + 26 };
    let _ = f26(1);
    let f26 = |a: i32| { a + 26 };
    let _ = f26(1);
    let d26 = '\'';
    x
}

fn gen_fn_27(x: i32) -> i32 { x + 27 }

pub fn gen_fn_28(x: i32) -> i32 {
    /* block } comment { */
    if x > 28 {
        return x - 28;
    }
    if x > 28 {
        return x - 28;
    }
    x
}

fn gen_fn_29<'a>(x: i32, _s: &'a str) -> i32
{
    let s29 = "} { \" }";
    let c29 = '{';
    // a comment with } and {
    let r29 = r#"} raw "quoted" {"#;
    x
}

pub(crate) fn gen_fn_30(
    x: i32,
    _y: i32,
) -> i32 {
    if x > 30 {
        return x - 30;
    }
    let f30 = |a: i32| { a + 30 };
    let _ = f30(1);
    x
}

fn gen_fn_31(x: i32) -> i32 { x + 31 }

pub fn gen_fn_32(x: i32) -> i32 {
    let b32 = b'{';
    x
}

fn gen_fn_33<'a>(x: i32, _s: &'a str) -> i32
{
    let b33 = b'{';
    x
}

pub(crate) fn gen_fn_34(
    x: i32,
    _y: i32,
) -> i32 {
    /* block } comment { */
    match x {
        0 => {}
        _ => { let _ = '}'; }
    }
    let b34 = b'{';
    let c34 = '{';
    x
}

fn gen_fn_35(x: i32) -> i32 { x + 35 }

pub fn gen_fn_36(x: i32) -> i32 {
    let s36 = "} { \" }";
    /* block } comment { */
    let b36 = b'{';
    x
}

fn gen_fn_37<'a>(x: i32, _s: &'a str) -> i32
{
    let d37 = '\'';
    let r37 = r#"} raw "quoted" {"#;
    x
}

pub(crate) fn gen_fn_38(
    x: i32,
    _y: i32,
) -> i32 {
    let d38 = '\'';
    let v38: Vec<&'static str> = vec!["}"];
    let b38 = b'{';
    x
}

fn gen_fn_39(x: i32) -> i32 { x + 39 }

pub struct Gen;

impl Gen {

    pub fn method_0(&self, x: i32) -> i32 {
        let v0: Vec<&'static str> = vec!["}"];
        // a comment with } and {
        let c0 = '{';
        x
    }


    pub fn method_1(&self, x: i32) -> i32 {
        let v1: Vec<&'static str> = vec!["}"];
        x
    }


    pub fn method_2(&self, x: i32) -> i32 {
        for k in 0..2 {
            let _ = k;
        }
        match x {
            0 => {}
            _ => { let _ = '}'; }
        }
        let b2 = b'{';
        // a comment with } and {
        x
    }


    pub fn method_3(&self, x: i32) -> i32 {
        let r3 = r#"} raw "quoted" {"#;
        let v3: Vec<&'static str> = vec!["}"];
        let b3 = b'{';
        x
    }


    pub fn method_4(&self, x: i32) -> i32 {
        let c4 = '{';
        // a comment with } and {
        x
    }


    pub fn method_5(&self, x: i32) -> i32 {
        for k in 0..5 {
            let _ = k;
        }
        let r5 = r#"} raw "quoted" {"#;
        let d5 = '\'';
        x
    }


    pub fn method_6(&self, x: i32) -> i32 {
        let v6: Vec<&'static str> = vec!["}"];
        /* block } comment { */
        match x {
            0 => {}
            _ => { let _ = '}'; }
        }
        let r6 = r#"} raw "quoted" {"#;
        x
    }


    pub fn method_7(&self, x: i32) -> i32 {
        match x {
            0 => {}
            _ => { let _ = '}'; }
        }
        if x > 7 {
            return x - 7;
        }
        let b7 = b'{';
        let s7 = "} { \" }";
        x
    }


    pub fn method_8(&self, x: i32) -> i32 {
        let s8 = "} { \" }";
        let c8 = '{';
        x
    }


    pub fn method_9(&self, x: i32) -> i32 {
        let f9 = |a: i32| { a + 9 };
        let _ = f9(1);
        let d9 = '\'';
        /* block } comment { */
        x
    }


}
