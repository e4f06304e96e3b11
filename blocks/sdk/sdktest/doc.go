// Package sdktest helps test blocks with `go test` (and `strata test`,
// which runs the _test.go files of a project's block folders): a block is
// a Go package, so its Transform is a function a test calls with tables it
// builds.
//
//	func TestTransform(t *testing.T) {
//		ctx := sdktest.NewContext(t, "2024-03-10")
//		orders := sdktest.CSV(t, "customer_id,amount\n1,12.5\n1,7.5\n2,3")
//		got, err := Transform(ctx, orders)
//		if err != nil {
//			t.Fatal(err)
//		}
//		sdktest.Equal(t, got, sdktest.CSV(t, "customer_id,total\n1,20\n2,3"), "customer_id")
//	}
//
// Inputs come from CSV (CSV, CSVFile) or from a version stored in the
// project's warehouse (FromVersion: the rows an upstream really had that
// day). Equal compares tables by key (or as row multisets) and fails with
// a readable diff.
//
// Like blocks/sdk it imports only the standard library, so it builds in a
// project with nothing but the SDK copy `strata init` writes; its source
// ships inside the strata binary the same way (Source).
package sdktest
