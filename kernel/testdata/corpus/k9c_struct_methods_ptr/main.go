package main

import (
	"fmt"
	"sort"
)

type Account struct {
	ID      int
	Balance float64
	History []float64
}

func (a *Account) Deposit(x float64) { a.Balance += x; a.History = append(a.History, x) }
func (a Account) Total() float64 {
	t := 0.0
	for _, h := range a.History {
		t += h
	}
	return t
}

type Bank struct {
	accounts map[int]*Account
	byValue  map[int]Account
}

func main() {
	b := Bank{accounts: map[int]*Account{}, byValue: map[int]Account{}}
	for i := 1; i <= 3; i++ {
		b.accounts[i] = &Account{ID: i}
		b.byValue[i] = Account{ID: i}
	}
	b.accounts[2].Deposit(50)
	b.accounts[2].Deposit(25)
	v := b.byValue[2]
	v.Deposit(10)
	fmt.Println(b.accounts[2].Balance, b.accounts[2].Total(), b.byValue[2].Balance, v.Balance)

	list := []Account{{ID: 9}, {ID: 8}}
	for i := range list {
		list[i].Deposit(float64(i + 1))
	}
	for _, a := range list {
		a.Deposit(100)
	}
	fmt.Println(list[0].Balance, list[1].Balance, len(list[0].History))
	ptrs := []*Account{&list[0], &list[1]}
	for _, p := range ptrs {
		p.Deposit(1)
	}
	fmt.Println(list[0].Balance, list[1].Balance)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	fmt.Println(list[0].ID, ptrs[0].ID)
	list = append(list, Account{ID: 7})
	ptrs[0].Deposit(1000)
	fmt.Println(list[0].Balance, ptrs[0].Balance)

	type Matrix [2][2]int
	m := Matrix{{1, 2}, {3, 4}}
	t := m
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			t[i][j] = m[j][i]
		}
	}
	fmt.Println(m, t)
	get := func(a Account) float64 { a.Balance = -1; return a.Balance }
	fmt.Println(get(list[0]), list[0].Balance)
	anon := struct {
		A []int
		M map[string]int
	}{A: []int{1}, M: map[string]int{}}
	cp := anon
	cp.A[0] = 9
	cp.M["k"] = 1
	cp.A = append(cp.A, 2)
	fmt.Println(anon.A, anon.M, cp.A)
}
