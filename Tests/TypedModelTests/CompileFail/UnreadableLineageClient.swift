import JSONModelKit

func readTruck(_ truck: Truck) -> (Int, Double, String?) {
    let wheels: Int = truck.wheels
    let load: Double = truck.load
    let trace: String? = truck.trace
    return (wheels, load, trace)
}
