// Generated functions for the oracle.
package gen

type Gen struct{}

func GenFn0(x int) int {
	if x > 0 {
		x -= 0
	}
	return x
}

func (g *Gen) Method1(x int) int {
	m1 := map[string]int{"}": 1}
	_ = m1
	return x
}

func genFn2(
	x int,
	y string,
) int {
	c2 := '{'
	_ = c2
	return x
}

func genFn3(x int) int { return x + 3 }

func GenFn4(x int) int {
	r4 := `} raw {`
	_ = r4
	c4 := '{'
	_ = c4
	f4 := func(a int) int { return a + 4 }
	_ = f4
	return x
}

func (g *Gen) Method5(x int) int {
	s5 := "} { \" }"
	_ = s5
	if x > 5 {
		x -= 5
	}
	return x
}

func genFn6(
	x int,
	y string,
) int {
	if x > 6 {
		x -= 6
	}
	return x
}

func genFn7(x int) int { return x + 7 }

func GenFn8(x int) int {
	// comment with } and {
	f8 := func(a int) int { return a + 8 }
	_ = f8
	return x
}

func (g *Gen) Method9(x int) int {
	if x > 9 {
		x -= 9
	}
	return x
}

func genFn10(
	x int,
	y string,
) int {
	s10 := "} { \" }"
	_ = s10
	r10 := `} raw {`
	_ = r10
	if x > 10 {
		x -= 10
	}
	if x > 10 {
		x -= 10
	}
	return x
}

func genFn11(x int) int { return x + 11 }

func GenFn12(x int) int {
	m12 := map[string]int{"}": 12}
	_ = m12
	return x
}

func (g *Gen) Method13(x int) int {
	r13 := `} raw {`
	_ = r13
	r13 := `} raw {`
	_ = r13
	return x
}

func genFn14(
	x int,
	y string,
) int {
	m14 := map[string]int{"}": 14}
	_ = m14
	return x
}

func genFn15(x int) int { return x + 15 }

func GenFn16(x int) int {
	/* block } comment { */
	c16 := '{'
	_ = c16
	/* block } comment { */
	m16 := map[string]int{"}": 16}
	_ = m16
	return x
}

func (g *Gen) Method17(x int) int {
	/* block } comment { */
	f17 := func(a int) int { return a + 17 }
	_ = f17
	s17 := "} { \" }"
	_ = s17
	return x
}

func genFn18(
	x int,
	y string,
) int {
	s18 := "} { \" }"
	_ = s18
	m18 := map[string]int{"}": 18}
	_ = m18
	return x
}

func genFn19(x int) int { return x + 19 }

func GenFn20(x int) int {
	m20 := map[string]int{"}": 20}
	_ = m20
	m20 := map[string]int{"}": 20}
	_ = m20
	return x
}

func (g *Gen) Method21(x int) int {
	// comment with } and {
	if x > 21 {
		x -= 21
	}
	m21 := map[string]int{"}": 21}
	_ = m21
	return x
}

func genFn22(
	x int,
	y string,
) int {
	c22 := '{'
	_ = c22
	for k := 0; k < 22; k++ {
		x += k
	}
	c22 := '{'
	_ = c22
	f22 := func(a int) int { return a + 22 }
	_ = f22
	return x
}

func genFn23(x int) int { return x + 23 }

func GenFn24(x int) int {
	c24 := '{'
	_ = c24
	r24 := `} raw {`
	_ = r24
	return x
}

func (g *Gen) Method25(x int) int {
	if x > 25 {
		x -= 25
	}
	/* block } comment { */
	// comment with } and {
	return x
}

func genFn26(
	x int,
	y string,
) int {
	c26 := '{'
	_ = c26
	s26 := "} { \" }"
	_ = s26
	// comment with } and {
	return x
}

func genFn27(x int) int { return x + 27 }

func GenFn28(x int) int {
	r28 := `} raw {`
	_ = r28
	return x
}

func (g *Gen) Method29(x int) int {
	r29 := `} raw {`
	_ = r29
	f29 := func(a int) int { return a + 29 }
	_ = f29
	for k := 0; k < 29; k++ {
		x += k
	}
	r29 := `} raw {`
	_ = r29
	return x
}

func genFn30(
	x int,
	y string,
) int {
	c30 := '{'
	_ = c30
	/* block } comment { */
	/* block } comment { */
	return x
}

func genFn31(x int) int { return x + 31 }

func GenFn32(x int) int {
	f32 := func(a int) int { return a + 32 }
	_ = f32
	for k := 0; k < 32; k++ {
		x += k
	}
	return x
}

func (g *Gen) Method33(x int) int {
	if x > 33 {
		x -= 33
	}
	for k := 0; k < 33; k++ {
		x += k
	}
	m33 := map[string]int{"}": 33}
	_ = m33
	return x
}

func genFn34(
	x int,
	y string,
) int {
	r34 := `} raw {`
	_ = r34
	s34 := "} { \" }"
	_ = s34
	r34 := `} raw {`
	_ = r34
	return x
}

func genFn35(x int) int { return x + 35 }

func GenFn36(x int) int {
	s36 := "} { \" }"
	_ = s36
	r36 := `} raw {`
	_ = r36
	r36 := `} raw {`
	_ = r36
	return x
}

func (g *Gen) Method37(x int) int {
	// comment with } and {
	/* block } comment { */
	return x
}

func genFn38(
	x int,
	y string,
) int {
	if x > 38 {
		x -= 38
	}
	r38 := `} raw {`
	_ = r38
	s38 := "} { \" }"
	_ = s38
	return x
}

func genFn39(x int) int { return x + 39 }
