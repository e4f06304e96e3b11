package main

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type Account struct {
	mu      sync.Mutex
	ID      string
	balance int
	history []int
}

var ErrInsufficient = errors.New("insufficient funds")

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
	a.history = append(a.history, n)
}

func (a *Account) Withdraw(n int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < n {
		return fmt.Errorf("withdraw %d from %s: %w", n, a.ID, ErrInsufficient)
	}
	a.balance -= n
	a.history = append(a.history, -n)
	return nil
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

type Bank struct {
	mu       sync.RWMutex
	accounts map[string]*Account
	ops      atomic.Int64
}

func (b *Bank) Open(id string, initial int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.accounts[id] = &Account{ID: id, balance: initial}
}

func (b *Bank) Get(id string) (*Account, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	a, ok := b.accounts[id]
	return a, ok
}

func main() {
	bank := &Bank{accounts: map[string]*Account{}}
	bank.Open("alice", 100)
	bank.Open("bob", 50)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			a, _ := bank.Get("alice")
			a.Deposit(2)
			bank.ops.Add(1)
		}()
		go func(n int) {
			defer wg.Done()
			b, _ := bank.Get("bob")
			b.Deposit(n % 3)
			bank.ops.Add(1)
		}(i)
	}
	wg.Wait()
	a, _ := bank.Get("alice")
	b, _ := bank.Get("bob")
	fmt.Println(a.Balance(), b.Balance(), bank.ops.Load(), len(a.history))
	err := b.Withdraw(1000)
	fmt.Println(err, errors.Is(err, ErrInsufficient))
	fmt.Println(a.Withdraw(200), a.Balance())
	_, ok := bank.Get("carol")
	fmt.Println(ok)

	var counter int64
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg2 sync.WaitGroup
	for i := range 20 {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			atomic.AddInt64(&counter, int64(i))
			mu.Lock()
			seen[i%7] = true
			mu.Unlock()
		}()
	}
	wg2.Wait()
	keys := []int{}
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	fmt.Println(atomic.LoadInt64(&counter), keys)
	var flag atomic.Bool
	fmt.Println(flag.CompareAndSwap(false, true), flag.CompareAndSwap(false, true), flag.Load())
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("init once", i) })
	}
}
