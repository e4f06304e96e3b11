package main

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

var ErrInsufficient = errors.New("insufficient funds")
var ErrNoAccount = errors.New("no such account")

type Account struct {
	mu      sync.Mutex
	ID      string
	balance int
	history []string
}

type Bank struct {
	mu       sync.RWMutex
	accounts map[string]*Account
}

func NewBank(initial map[string]int) *Bank {
	b := &Bank{accounts: map[string]*Account{}}
	for id, bal := range initial {
		b.accounts[id] = &Account{ID: id, balance: bal}
	}
	return b
}

func (b *Bank) get(id string) (*Account, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	a, ok := b.accounts[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNoAccount, id)
	}
	return a, nil
}

func (b *Bank) Transfer(from, to string, amt int) error {
	src, err := b.get(from)
	if err != nil {
		return err
	}
	dst, err := b.get(to)
	if err != nil {
		return err
	}
	first, second := src, dst
	if first.ID > second.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if src.balance < amt {
		return fmt.Errorf("transfer %d from %s: %w (have %d)", amt, from, ErrInsufficient, src.balance)
	}
	src.balance -= amt
	dst.balance += amt
	return nil
}

func main() {
	bank := NewBank(map[string]int{"alice": 100, "bob": 50, "carol": 0})
	var wg sync.WaitGroup
	var errMu sync.Mutex
	errCount := map[string]int{}
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 3 {
			case 0:
				err = bank.Transfer("alice", "bob", 1)
			case 1:
				err = bank.Transfer("bob", "carol", 2)
			case 2:
				err = bank.Transfer("carol", "alice", 1)
			}
			if err != nil {
				errMu.Lock()
				errCount[err.Error()]++
				errMu.Unlock()
			}
		}()
	}
	wg.Wait()
	total := 0
	ids := []string{}
	for id := range bank.accounts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		total += bank.accounts[id].balance
	}
	fmt.Println("total conserved:", total == 150, "errors seen:", len(errCount) >= 0)
	fmt.Println(bank.Transfer("alice", "dave", 5))
	err := bank.Transfer("carol", "bob", 1_000)
	fmt.Println(errors.Is(err, ErrInsufficient), errors.Is(err, ErrNoAccount))
	b2 := NewBank(map[string]int{"x": 10, "y": 0})
	for i := 0; i < 4; i++ {
		if err := b2.Transfer("x", "y", 3); err != nil {
			fmt.Println("step", i, err)
		}
	}
	fmt.Println(b2.accounts["x"].balance, b2.accounts["y"].balance)
}
